// Replay pages: the keyboard's arrows (and Home, End) follow the first, previous, next and last
// links, the log scrolls to the step's lines, moving the slider opens its step (choosing a
// viewpoint, that table), and a step opens where the page was scrolled to and is announced.
// Listeners sit on the document, so they keep working when htmx swaps a boosted page in.
(function () {
  const keys = { ArrowLeft: "replay-previous", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  document.addEventListener("keydown", function (event) {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || !document.getElementById("replay")) return;
    if (target instanceof HTMLElement && target.closest("input, select, textarea")) return;
    const link = document.getElementById(keys[event.key] || "");
    if (link instanceof HTMLAnchorElement) {
      event.preventDefault();
      link.click();
    }
  });
  document.addEventListener("change", function (event) {
    const slider = event.target;
    if (slider instanceof HTMLInputElement && slider.id === "replay-slider" && slider.form) slider.form.requestSubmit();
    if (slider instanceof HTMLSelectElement && slider.closest(".replay-viewpoint") && slider.form) slider.form.requestSubmit();
  });
  // A step opens where the reader was (templates/replay.html asks htmx not to scroll to the top;
  // the swap of the whole page still let the browser drop to the top for a moment, and stay).
  let kept = null;
  document.addEventListener("htmx:beforeSwap", function () {
    kept = document.getElementById("replay") ? window.scrollY : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (kept !== null && document.getElementById("replay")) window.scrollTo(0, kept);
    kept = null;
  });
  function showCurrentLines() {
    const log = document.getElementById("replay-log");
    const current = log && log.querySelector("li.current");
    if (log && current) log.scrollTop = current.offsetTop - log.offsetTop - log.clientHeight / 3;
  }
  document.addEventListener("DOMContentLoaded", showCurrentLines);
  document.addEventListener("htmx:afterSettle", showCurrentLines);
  // A step opened is announced: its position and sentence, in the live region the swap kept.
  document.addEventListener("htmx:afterSettle", function () {
    const said = document.getElementById("replay-said");
    const position = document.getElementById("replay-position");
    const step = document.getElementById("replay-step");
    if (said && position && step) said.textContent = position.textContent.trim() + ". " + step.textContent.trim();
  });
})();
