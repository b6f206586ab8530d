// Small page helpers: the connection indicator, copy-to-clipboard, absolute invite links, the
// turn timer's countdown and clearing the chat box once a message is sent (no inline handlers:
// the Content-Security-Policy forbids them).
(function () {
  function setConnection(state, label) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.dataset.state = state;
    el.querySelector(".label").textContent = label;
  }
  function absolutize() {
    document.querySelectorAll("[data-path]").forEach(function (input) {
      input.value = window.location.origin + input.dataset.path;
    });
  }
  document.addEventListener("htmx:wsOpen", function () { setConnection("live", "live"); });
  document.addEventListener("htmx:wsClose", function () { setConnection("down", "reconnecting…"); });
  document.addEventListener("htmx:wsError", function () { setConnection("down", "reconnecting…"); });
  document.addEventListener("htmx:wsAfterMessage", absolutize);
  document.addEventListener("htmx:afterSwap", absolutize);
  document.addEventListener("DOMContentLoaded", absolutize);
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
    if (form.classList && form.classList.contains("chat-form") && event.detail.successful) form.reset();
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.dataset.copy);
    if (!input) return;
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
    setTimeout(function () { button.textContent = "Copy"; }, 1500);
  });
})();
