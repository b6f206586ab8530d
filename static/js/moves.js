// A click on a move travels over the page's live socket while it is open, as htmx's ws-send
// sends a form: the move form's fields (its action as JSON, and the version the table showed)
// as one JSON message on the socket that htmx's ws extension holds, instead of the form's
// HTTP post. The answer comes back on that socket: the table's sections that changed, as for
// every seat, or the refusal's reason as the flash toast. A page without a live socket posts
// the form (the fallback route answers the fresh table). A form sent waits for its answer: a
// second click on it sends nothing (one click, one move). No inline handlers (the CSP).
// A move form is known by its hx-post; its method and action (the same URL) are for the
// browser's own submit, when htmx has not bound the form or no script runs: the route plays
// that move too and sends the browser back to the seat's page. While htmx has the form, it
// cancels that submit, so a click is one move either way.
(function () {
  var socket = null;

  function moveForm(el) {
    return el && el.tagName === "FORM" && /\/seat\/[^/]+\/act$/.test(el.getAttribute("hx-post") || "");
  }

  document.addEventListener("htmx:wsOpen", function (event) { socket = event.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function () { socket = null; });
  document.addEventListener("htmx:wsError", function () { socket = null; });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!socket || !moveForm(form)) return;
    event.preventDefault();
    if (form.dataset.sent) return;
    form.dataset.sent = "1";
    var fields = new FormData(form);
    socket.send(JSON.stringify({ action: fields.get("action"), version: fields.get("version") }), form);
  });
  // A refusal (the flash swapped in) frees the forms sent, whose table may not have changed.
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (!event.target || event.target.id !== "flash") return;
    document.querySelectorAll("form[data-sent]").forEach(function (form) { delete form.dataset.sent; });
  });
})();
