// What sticks at the top of a room's page (the room's bar, and in play the status-and-actions
// section under it) is measured after every swap and kept in --sticky-h, so that what is
// scrolled into view (a target by keyboard, a card the page scrolls to) lands below it and not
// under it: static/css/room.css sets the page's scroll-padding-top from it (the docked hand
// has its own scroll-padding-bottom), and while Leaders are chosen, how tall the docked hand may
// be without covering them (--dock-under-leaders). The docked hand folds down to its heading (its "Hide"
// button, templates/games/macros.html) so that more of the table shows; the choice is kept for
// the tab's pages (localStorage) and stays across every swap of the hand. A docked hand wider
// than the screen scrolls sideways: its row is marked with the side(s) more cards lie to
// (data-more: right, left or both), which static/css/room.css fades out as a cue; so is a table
// wider than its box (.table-scroll: a rules page's, a final result's on a phone), faded by
// static/css/arena.css.
(function () {
  var FOLDED = "arena-hand-folded";
  function kept() { try { return localStorage.getItem(FOLDED) === "1"; } catch (e) { return false; } }
  function keep(folded) { try { localStorage.setItem(FOLDED, folded ? "1" : "0"); } catch (e) { /* storage off */ } }
  function showFold() {
    var docked = !document.getElementById("replay") && !!document.querySelector("#room-main .felt > .your-hand");
    var folded = kept() && docked;  // (a replay's hand is in the page's flow: nothing to fold)
    document.documentElement.toggleAttribute("data-hand-folded", folded);
    document.querySelectorAll("#room-main .hand-fold").forEach(function (button) {
      button.hidden = !docked;
      button.setAttribute("aria-expanded", folded ? "false" : "true");
      button.textContent = folded ? button.dataset.show : button.dataset.hide;
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#room-main .hand-fold");
    if (!button) return;
    keep(!kept());
    showFold();
    measure();
  });
  function edges(row) {  // (a few pixels more are no cue: a fade would hide what is all but whole)
    var most = row.scrollWidth - row.clientWidth;
    var more = most <= 4 ? "" : row.scrollLeft <= 1 ? "right" : row.scrollLeft >= most - 1 ? "left" : "both";
    if (more) row.dataset.more = more;
    else delete row.dataset.more;
  }
  var ROW = "#room-main .your-hand .hand-row, .table-scroll";
  document.addEventListener("scroll", function (event) {
    if (event.target.matches && event.target.matches(ROW)) edges(event.target);
  }, true);  // (a row's scroll does not bubble: caught on its way down)
  function measure() {
    document.querySelectorAll(ROW).forEach(edges);
    var bar = document.getElementById("room-bar");
    var status = document.querySelector("#room-main .felt > .table-status");
    var height = (bar ? bar.getBoundingClientRect().height : 0) + (status ? status.getBoundingClientRect().height : 0);
    document.documentElement.style.setProperty("--sticky-h", Math.ceil(height) + "px");
    // While Leaders are chosen the hand holds no move: docked, it stops above the Leaders (as
    // the page opens, scrolled to its top), however tall their cards are
    var leaders = document.querySelector("#room-main #leader-choice");
    if (leaders) {
      var below = window.innerHeight - (leaders.getBoundingClientRect().bottom + window.scrollY) - 8;
      document.documentElement.style.setProperty("--dock-under-leaders", Math.max(120, Math.floor(below)) + "px");
    }
  }
  document.addEventListener("DOMContentLoaded", measure);
  document.addEventListener("htmx:wsAfterMessage", measure);
  document.addEventListener("htmx:afterSettle", measure);
  document.addEventListener("DOMContentLoaded", showFold);
  document.addEventListener("htmx:wsAfterMessage", showFold);
  document.addEventListener("htmx:afterSettle", showFold);
  window.addEventListener("resize", measure);
})();
