// Feedback where the player looks. A refusal is the #flash toast, fixed in the viewport; it
// closes on a click or Escape, or after a while (a seat's reissued link only on its Close button,
// a click on it or Escape: the host has to copy it first). A request the server could not answer shows the same
// toast. While the live socket is down every control of the room is disabled under a visible
// "not connected" note, and comes back with the fresh view the socket sends on reconnecting; a
// socket the server closed for good (1008, never retried) turns the note into a call to reload.
// The host's "Let a bot play" and "New link" buttons (data-wait: replace, reissue) wait out the
// lobby's grace period (data-grace on the room) from the player's last sign of life as the
// server counted it for each when it served the page (data-grace-left; a join counts for the
// first only), or from when this page saw the player go, counting the seconds down on their
// face (data-<kind>-label: a phone has no hover to show the title). No inline handlers (the CSP).
(function () {
  var TOAST_MS = 8000;
  var offline = false;
  var ended = false;  // the server closed the socket for good (1008): no reconnection comes
  var hideTimer = null;
  var awaySince = {};
  var graceLeft = null;  // seconds of the grace left for each player when the page was served
  var graceTimer = null;  // the one pending count-down step

  function room() { return document.querySelector(".room-shell"); }

  function toast(text) {
    var flash = document.getElementById("flash");
    if (!flash) return;
    if (text) flash.textContent = text;
    flash.classList.toggle("shown", flash.textContent.trim() !== "");
    clearTimeout(hideTimer);
    // a reissued seat link stays until closed: the host has to copy it
    if (flash.classList.contains("shown") && !flash.querySelector(".new-link")) {
      hideTimer = setTimeout(function () { flash.classList.remove("shown"); }, TOAST_MS);
    }
  }

  function pause() {
    document.querySelectorAll(".room-shell form button, .room-shell form input, .room-shell form select")
      .forEach(function (el) {
        if (el.disabled) return;
        el.disabled = true;
        el.dataset.offline = "1";
      });
  }

  function setOffline(down) {
    offline = down;
    var note = document.getElementById("offline-note");
    if (note) {
      if (!note.dataset.paused) note.dataset.paused = note.textContent;
      note.textContent = ended ? note.dataset.closed : note.dataset.paused;
      note.hidden = !down;
    }
    if (down) return pause();
    document.querySelectorAll("[data-offline]").forEach(function (el) {
      el.disabled = false;
      delete el.dataset.offline;
    });
    waitForGrace();
  }

  function waitForGrace() {
    var shell = room();
    if (!shell) return;
    var grace = parseInt(shell.dataset.grace || "0", 10) * 1000;
    if (graceLeft === null) graceLeft = JSON.parse(shell.dataset.graceLeft || "{}");
    var now = Date.now();
    var shown = {};
    var next = null;
    document.querySelectorAll("button[data-away]").forEach(function (button) {
      var seat = button.dataset.away, kind = button.dataset.wait, key = kind + seat;
      var left = graceLeft[kind] || {};
      shown[key] = true;
      if (!(key in awaySince)) {  // the server's count at the page's load, once; else from now
        awaySince[key] = seat in left ? now - grace + left[seat] * 1000 : now;
        delete left[seat];  // (a player who comes back and goes again is counted anew)
      }
      var wait = awaySince[key] + grace - now;
      if (wait > 0) {
        if (button.dataset.ready === undefined) {
          button.dataset.ready = button.title;
          button.dataset.label = button.textContent;
        }
        button.disabled = true;
        button.title = shell.dataset[kind + "Title"];
        button.textContent = shell.dataset[kind + "Label"].replace("{seconds}", Math.ceil(wait / 1000));
        var step = (wait % 1000) || 1000;  // (to the next whole second shown)
        next = next === null ? step : Math.min(next, step);
      } else if (button.dataset.ready !== undefined && !offline) {
        button.disabled = false;
        button.title = button.dataset.ready;
        button.textContent = button.dataset.label;
      }
    });
    clearTimeout(graceTimer);
    if (next !== null) graceTimer = setTimeout(waitForGrace, next + 20);
    Object.keys(awaySince).forEach(function (key) { if (!shown[key]) delete awaySince[key]; });
  }

  function afterSwap() {
    if (offline) pause();
    waitForGrace();
  }

  document.addEventListener("htmx:wsClose", function (event) {
    var close = event.detail && event.detail.event;
    if (close && close.code === 1008) ended = true;
    setOffline(true);
  });
  document.addEventListener("htmx:wsError", function () { setOffline(true); });
  document.addEventListener("htmx:wsOpen", function () { ended = false; setOffline(false); });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target && event.target.id === "flash") toast();
    afterSwap();
  });
  document.addEventListener("htmx:wsAfterMessage", afterSwap);
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (offline && event.target.closest && event.target.closest(".room-shell")) {
      event.preventDefault();
      toast(document.getElementById("offline-note").textContent);
    }
  });
  function failed(event) {
    var shell = room();
    if (!shell) return;
    var status = event.detail.xhr && event.detail.xhr.status;
    toast(shell.dataset.failed + (status ? " (" + status + ")" : ""));
  }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);
  function closeFlash() {
    var flash = document.getElementById("flash");
    if (flash) flash.classList.remove("shown");
  }
  document.addEventListener("click", function (event) {
    if (event.target.id === "flash" || event.target.closest("[data-close-flash]")) closeFlash();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") closeFlash();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", waitForGrace);
  else waitForGrace();
})();
