// Small page helpers: the connection indicator and the socket's reconnection, copy-to-clipboard,
// absolute invite links, the room details folded on a phone and in play, the turn timer's
// countdown, clearing the chat box once a message is sent, unless it was refused, and keeping
// what a reader types into the table's forms across its live redraws (no inline handlers: the
// Content-Security-Policy forbids them).
(function () {
  function setConnection(state, label) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.dataset.state = state;
    el.querySelector(".label").textContent = el.dataset[state] || label;  // the page's language
    el.title = el.dataset[state] || label;  // a phone's room bar shows a live connection as its dot alone
  }
  function absolutize() {
    document.querySelectorAll("[data-path]").forEach(function (input) {
      input.value = window.location.origin + input.dataset.path;
    });
  }
  // While this page's own socket is down, no one's presence is known: each player shows as
  // unknown until the socket is back (its first frame redraws the presence strip).
  function presenceUnknown() {
    var el = document.getElementById("connection");
    var unknown = (el && el.dataset.unknown) || "unknown";
    document.querySelectorAll("#presence > li").forEach(function (li) {
      li.classList.remove("online", "away");
      li.classList.add("unknown");
      li.title = unknown;
      var said = li.querySelector(".sr-only");
      if (said) said.textContent = unknown;
    });
  }
  function down() { setConnection("down", "reconnecting…"); presenceUnknown(); }
  // A socket the server closed for good (1008: past a cap of sockets for the seat or of the
  // room's spectators, or a link the host reissued) is not tried again: the indicator says
  // "disconnected", with the server's reason as its title, instead of "reconnecting…" for ever
  // (the note under the bar asks for a reload: static/js/feedback.js).
  function closed(event) {
    var close = event.detail && event.detail.event;
    if (!close || close.code !== 1008) return down();
    setConnection("closed", "disconnected");
    presenceUnknown();
    var el = document.getElementById("connection");
    if (el && close.reason) el.title = close.reason;
  }
  // "live" once the socket's first frame (the whole table, sent as it opens) is on the page, not
  // as it opens: until then the table shown may be stale, and a control focused then was
  // replaced under the reader (a test's Enter fell into the keyboard guard of access.js).
  var opened = false;
  document.addEventListener("htmx:wsOpen", function () { opened = true; });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (opened) setConnection("live", "live");
    opened = false;
  });
  document.addEventListener("htmx:wsClose", closed);
  document.addEventListener("htmx:wsError", down);
  // Reconnect at once, then at most half a second apart for the first 20 tries (a restart's
  // few seconds), then at most 1.5 s apart (htmx's default, a full jitter that doubles up to
  // 64 s, left pages 11 s behind a restarted server): a page is back within 2 s of the server
  // answering again, without trying several times a second through a long outage; the jitter
  // spreads a room's pages out.
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retries) {
      return (retries < 20 ? Math.min(500, 100 * (retries + 1)) : 1500) * (0.5 + Math.random() / 2);
    };
  }
  // The room details fold away on a phone, and everywhere once the game starts: open on a wide
  // screen while the room waits for players, and as the reader last left them.
  var detailsOpen = null;
  function roomDetails() {
    var details = document.getElementById("room-details");
    var main = document.getElementById("room-main");
    if (!details) return;
    var waiting = !main || main.dataset.status === "open";
    var open = detailsOpen !== null ? detailsOpen : waiting && (details.open || window.matchMedia("(min-width: 701px)").matches);
    if (details.open !== open) details.open = open;
  }
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("#room-details > summary");
    if (summary) detailsOpen = !summary.parentElement.open;
  });
  // What a reader types into a text field of the table (a name to take a seat with) outlives
  // the table's live redraws, which replace the field: kept as it is typed, by the field's form
  // and name, and put back into the same field of the redrawn table while that one is empty.
  var typed = {};
  var TEXT_FIELDS = "#room-main form input:not([type]), #room-main form input[type=text]";
  function fieldKey(input) {
    return (input.form.getAttribute("action") || input.form.getAttribute("hx-post") || "") + " " + input.name;
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches(TEXT_FIELDS)) typed[fieldKey(event.target)] = event.target.value;
  });
  function putBackTyped() {
    document.querySelectorAll(TEXT_FIELDS).forEach(function (input) {
      var value = typed[fieldKey(input)];
      if (value && !input.value) input.value = value;
    });
  }
  document.addEventListener("htmx:oobAfterSwap", putBackTyped);
  document.addEventListener("htmx:wsAfterMessage", putBackTyped);
  function afterUpdate() { absolutize(); roomDetails(); }
  document.addEventListener("htmx:wsAfterMessage", afterUpdate);
  document.addEventListener("htmx:afterSwap", afterUpdate);
  document.addEventListener("htmx:oobAfterSwap", roomDetails);
  document.addEventListener("DOMContentLoaded", afterUpdate);
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = left + " s";
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("htmx:wsAfterMessage", tick);
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    var refused = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Refused");
    if (form.classList && form.classList.contains("chat-form") && event.detail.successful && !refused) form.reset();
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.dataset.copy);
    if (!input) return;
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    var text = button.textContent;
    button.textContent = button.dataset.copied || "Copied";
    setTimeout(function () { button.textContent = text; }, 1500);
  });
})();
