// Motion: a piece that moves travels from where it was to where it lands. Before a socket
// frame is swapped in, the place of every piece on the table is noted by what the piece is: its
// data-key, which each game's table template gives the pieces that may move (a face-down piece,
// like any other of its kind, has none); after it, a piece that is now somewhere else glides
// there from its old place and size (a "FLIP": first, last, invert, play), in MOTION_MS, with the
// Web Animations API. htmx's socket extension swaps out of band (api.oobSwap), outside the path
// where htmx starts a View Transition, hence this. Nothing moves under prefers-reduced-motion,
// nor in a hidden tab; a piece that only appears is highlighted by noticing.js instead.
(function () {
  var MOTION_MS = 260;
  var PIECES = "#room-main .felt [data-key]";  // what a piece is, whatever its size or place: its data-key
  var still = window.matchMedia("(prefers-reduced-motion: reduce)");
  var before = null;

  // Where a piece is laid out: its box on screen, but at its own size, about the same centre.
  // noticing.js has just marked a piece that arrived "fresh", whose pop starts it at 0.8 of its
  // size: measured as it shows, a card would set off a quarter too big, and aside.
  function laid(el) {
    var box = el.getBoundingClientRect(), w = el.offsetWidth, h = el.offsetHeight;
    if (!w || !h) return box;
    return { left: box.left + (box.width - w) / 2, top: box.top + (box.height - h) / 2, width: w, height: h };
  }

  // Each piece's box by what it is: as it shows before a frame, as laid out after it.
  function places(after) {
    var found = {};
    document.querySelectorAll(PIECES).forEach(function (el) {
      var key = el.dataset.key;
      var box = after ? laid(el) : el.getBoundingClientRect();
      if (!box.width) return;
      (found[key] = found[key] || []).push({ el: el, box: box });
    });
    return found;
  }

  function near(a, b) { return Math.abs(a.left - b.left) < 2 && Math.abs(a.top - b.top) < 2; }

  // The pieces that moved: for each kind, those still in their old place stay; the others are
  // paired with the old places left over, in page order.
  function moves(old, now) {
    var pairs = [];
    Object.keys(now).forEach(function (key) {
      var was = (old[key] || []).slice();
      var gone = now[key].filter(function (piece) {
        var i = was.findIndex(function (w) { return near(w.box, piece.box); });
        if (i < 0) return true;
        was.splice(i, 1);
        return false;
      });
      gone.forEach(function (piece, i) { if (was[i]) pairs.push({ el: piece.el, from: was[i].box, to: piece.box }); });
    });
    return pairs;
  }

  function glide(pair) {
    var dx = pair.from.left - pair.to.left, dy = pair.from.top - pair.to.top;
    var sx = pair.from.width / pair.to.width, sy = pair.from.height / pair.to.height;
    pair.el.classList.add("moving");  // kept until the next swap: taking it off would replay .fresh's pop
    pair.el.animate(
      [{ transform: "translate(" + dx + "px, " + dy + "px) scale(" + sx + ", " + sy + ")", transformOrigin: "0 0" },
       { transform: "none", transformOrigin: "0 0" }],
      { duration: MOTION_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    before = still.matches || document.hidden ? null : places();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!before) return;
    var old = before;
    before = null;
    moves(old, places(true)).forEach(glide);
  });
  window.arenaMotion = { MOTION_MS: MOTION_MS };  // read by the browser tests
})();
