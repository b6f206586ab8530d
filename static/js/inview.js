// In view: a push must not leave what the player needs now above or below the screen. When the
// game ends, its final result is scrolled to the top of the page (under the sticky bars) unless
// its heading is on screen already; when the turn comes to this seat and none of its moves on
// the table is on screen (the page was left scrolled to a round's results, say), the first of
// them is scrolled to the middle. Moves in the sticky status bar do not count: they are always
// on screen, while the move the status line asks for may not be. The scroll waits for the push
// to settle (htmx settles its swaps 20 ms later, and the sticky bars are measured again), so
// nothing moves under it afterwards. Nothing scrolls while the player types (the chat) or the
// tab is hidden, nor on a page's first load; under prefers-reduced-motion it jumps.
(function () {
  var still = window.matchMedia("(prefers-reduced-motion: reduce)");
  var was = null;  // the table's status and whose turn, as of the last push

  var SETTLED_MS = 60;

  function sticky() {
    return parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--sticky-h")) || 0;
  }

  function onScreen(el) {
    var box = el.getBoundingClientRect();
    return box.height > 0 && box.bottom > sticky() && box.top < innerHeight;
  }

  function topOnScreen(el) {
    var box = el.getBoundingClientRect();
    return box.height > 0 && box.top >= sticky() - 1 && box.top < innerHeight;
  }

  function typing() {
    var el = document.activeElement;
    return Boolean(el) && (el.tagName === "TEXTAREA" || el.isContentEditable || (el.tagName === "INPUT" && el.type === "text"));
  }

  function bring(el, block) {
    el.scrollIntoView({ block: block, behavior: still.matches ? "auto" : "smooth" });
  }

  function tableMoves() {
    return Array.prototype.filter.call(
      document.querySelectorAll("#room-main .felt button:not([disabled]), #room-main .felt label.pick"),
      function (move) { return !move.closest(".table-status") && (!move.checkVisibility || move.checkVisibility()); }
    );
  }

  function check() {
    var state = document.getElementById("table-state");
    if (!state) return;
    var now = { status: state.dataset.status, mine: state.dataset.yourTurn === "1" };
    var before = was;
    was = now;
    if (!before || typing() || document.hidden) return;
    var ended = before.status === "playing" && now.status !== "playing";
    var turnCame = now.mine && !before.mine;
    if (ended || turnCame) setTimeout(function () { settled(ended); }, SETTLED_MS);
  }

  function settled(ended) {
    if (ended) {
      var result = document.getElementById("final-result");
      if (result && !topOnScreen(result)) bring(result, "start");
      return;
    }
    var moves = tableMoves();
    if (moves.length && !moves.some(onScreen)) bring(moves[0], "center");
  }

  document.addEventListener("htmx:wsAfterMessage", check);
  document.addEventListener("DOMContentLoaded", check);
})();
