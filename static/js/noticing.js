// Noticing what changed. Before each push replaces the table (or sections of it), the pieces in
// every table area with an id (tiles, cards, gems, coins, figures: PIECES, the games' from their
// entries in the page's arena-pieces meta) are noted; after it, a
// piece that was not there before gets the class "fresh" (a short transition, off under
// prefers-reduced-motion, and an outline that stays until the next update). While the tab is hidden the reference
// stays the table as last seen, so coming back shows everything since. A reload keeps them: the
// reference the highlights were drawn against is kept for the tab (sessionStorage, by page
// address) when the page goes, and the reloaded table is compared with it. The tab's title says
// "Your turn" while it is; and, if the player turned them on (off by default, kept in
// localStorage), a sound and a browser notification say so when the turn comes.
(function () {
  var listed = document.querySelector('meta[name="arena-pieces"]');  // each game's, from its entry
  var PIECES = (listed && listed.content ? listed.content + ", " : "") + ".count, .badge.turn";
  var seen = null;  // the pieces of the table as the player last saw it
  var pending = null;
  var against = null;  // the reference the table's highlights were last drawn against
  var restored = null;  // that reference as the page before a reload left it, until the first push
  var KEPT = "arena-seen:" + location.pathname;
  var baseTitle = document.title;
  var wasMyTurn = null;

  // What a piece shows, without the classes scripts add for a moment: this one's "fresh",
  // motion.js's "moving" (a tile that only slid along as its row reflowed is not new) and
  // pointing.js's "pickable" and "picked".
  var PASSING = /\b(fresh|moving|pickable|picked)\b/g;
  function signature(el) {
    return el.className.replace(PASSING, "").replace(/\s+/g, " ").trim() + "|" + el.textContent.replace(/\s+/g, " ").trim();
  }

  function snapshot() {
    var areas = {};
    document.querySelectorAll("#room-main .felt [id]").forEach(function (area) {
      var counts = {};
      area.querySelectorAll(PIECES).forEach(function (piece) {
        var key = signature(piece);
        counts[key] = (counts[key] || 0) + 1;
      });
      areas[area.id] = counts;
    });
    return areas;
  }

  function markFresh(before) {
    document.querySelectorAll("#room-main .felt [id]").forEach(function (area) {
      var old = before[area.id];
      if (!old) return;
      var left = Object.assign({}, old);
      area.querySelectorAll(PIECES).forEach(function (piece) {
        var key = signature(piece);
        if (left[key]) left[key] -= 1;
        else piece.classList.add("fresh");
      });
    });
  }

  function settings() {
    try { return JSON.parse(localStorage.getItem("arena-alerts") || "{}"); } catch (e) { return {}; }
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    var audio = new Context();
    var tone = audio.createOscillator();
    var gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  }

  function yourTurn() {
    var main = document.getElementById("room-main");
    var state = document.getElementById("table-state");
    var shell = document.querySelector(".room-shell");
    if (!main || !state || !shell) return;
    var mine = state.dataset.yourTurn === "1";
    document.title = mine ? shell.dataset.yourTurnTitle + " · " + baseTitle : baseTitle;
    if (mine && wasMyTurn === false) {
      var chosen = settings();
      if (chosen.sound) beep();
      if (chosen.notify && document.hidden && window.Notification && Notification.permission === "granted") {
        var status = main.querySelector(".status-line");
        new Notification(shell.dataset.yourTurnTitle, { body: status ? status.textContent.replace(/\s+/g, " ").trim() : "" });
      }
    }
    wasMyTurn = mine;
  }

  function showSettings() {
    var chosen = settings();
    document.querySelectorAll("[data-alert]").forEach(function (box) { box.checked = Boolean(chosen[box.dataset.alert]); });
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.dataset || !box.dataset.alert) return;
    var chosen = settings();
    chosen[box.dataset.alert] = box.checked;
    localStorage.setItem("arena-alerts", JSON.stringify(chosen));
    if (box.dataset.alert === "notify" && box.checked && window.Notification && Notification.permission === "default") {
      Notification.requestPermission();
    }
  });
  // A frame may swap the whole table or some of its sections: the table is noted before the
  // first of them, and compared once the frame is in.
  function inTable(el) { return el && (el.id === "room-main" || Boolean(el.closest && el.closest("#room-main"))); }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (pending || !inTable(event.detail.target)) return;
    if (seen === null || !document.hidden) seen = snapshot();
    pending = restored || seen;  // a socket's first push redraws the reloaded table: the same marks
    restored = null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!pending) return;
    markFresh(pending);
    against = pending;
    pending = null;
    yourTurn();
  });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) seen = snapshot(); });
  window.addEventListener("pagehide", function () {
    try { if (against) sessionStorage.setItem(KEPT, JSON.stringify(against)); } catch (e) { /* storage off */ }
  });
  function start() {
    var title = document.querySelector("title");
    baseTitle = title ? title.textContent : document.title;
    try { restored = JSON.parse(sessionStorage.getItem(KEPT) || "null"); } catch (e) { restored = null; }
    if (restored) {
      markFresh(restored);
      against = restored;
    }
    showSettings();
    yourTurn();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
