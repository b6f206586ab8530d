// What sticks at the top of a room's page (the room's bar, and in play the status-and-actions
// section under it) is measured after every swap and kept in --sticky-h, so that what is
// scrolled into view (a target by keyboard, a card the page scrolls to) lands below it and not
// under it: static/css/room.css sets the page's scroll-padding-top from it (the docked hand
// has its own scroll-padding-bottom).
(function () {
  function measure() {
    var bar = document.getElementById("room-bar");
    var status = document.querySelector("#room-main .felt > .table-status");
    var height = (bar ? bar.getBoundingClientRect().height : 0) + (status ? status.getBoundingClientRect().height : 0);
    document.documentElement.style.setProperty("--sticky-h", Math.ceil(height) + "px");
  }
  document.addEventListener("DOMContentLoaded", measure);
  document.addEventListener("htmx:wsAfterMessage", measure);
  document.addEventListener("htmx:afterSettle", measure);
  window.addEventListener("resize", measure);
})();
