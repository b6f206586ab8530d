// Rows of moves as one Tab stop: a row marked data-roving (Troika's face-up tiles and the tiles
// of a container or hand, TriATri's hand) is a toolbar whose buttons the arrow keys, Home and
// End move between, and Tab leaves in one press. Only one of its buttons is in the Tab order (a
// "roving tabindex"): the one last focused, else the first. A keyboard
// player's probe counted 23 Tabs to cross a long row of tiles. Rows are arranged again after
// every push, since a push renders them afresh.
(function () {
  var KEYS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

  function buttons(row) {
    return Array.prototype.slice.call(row.querySelectorAll("button:not([disabled]):not([hidden])"));
  }

  function choose(row, chosen) {
    buttons(row).forEach(function (b) { b.setAttribute("tabindex", b === chosen ? "0" : "-1"); });
  }

  function arrange() {
    document.querySelectorAll("[data-roving]").forEach(function (row) {
      var all = buttons(row);
      if (!all.length) return;
      var focused = all.indexOf(document.activeElement) >= 0 ? document.activeElement : null;
      var kept = all.filter(function (b) { return b.getAttribute("tabindex") === "0"; })[0];
      choose(row, focused || kept || all[0]);
    });
  }

  document.addEventListener("focusin", function (event) {
    var row = event.target.closest && event.target.closest("[data-roving]");
    if (row && event.target.matches("button")) choose(row, event.target);
  });
  document.addEventListener("keydown", function (event) {
    var row = event.target.closest && event.target.closest("[data-roving]");
    if (!row || event.altKey || event.ctrlKey || event.metaKey) return;
    var all = buttons(row);
    var at = all.indexOf(event.target);
    if (at < 0) return;
    var to = event.key === "Home" ? 0 : event.key === "End" ? all.length - 1
      : KEYS[event.key] ? (at + KEYS[event.key] + all.length) % all.length : null;
    if (to === null) return;
    event.preventDefault();
    all[to].focus();
  });
  document.addEventListener("htmx:oobAfterSwap", arrange);
  document.addEventListener("htmx:afterSettle", arrange);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", arrange);
  else arrange();
})();
