// Pointing: in the advanced game of Vem aí, a move that names things on the table (a card to
// play or cancel, the side to support, a player, a column) is chosen by clicking or tapping
// those things, or by keyboard (each is focusable; Enter or Space picks it, Escape forgets the
// picks). Each of the move's options carries the things it names (data-points, made in Python:
// app/web/tables/vem_ai_troika.py, points): "g:<id>" is a Group card wherever it lies, "#<id>"
// the element with that id. Every thing some option names is marked .pickable (unless it is a
// control already: a card ticked for an attack keeps its tick); each pick keeps
// the options that name all the things picked so far. When one is left it is sent, as its
// box's button would send it; while several are, the box's list shows only those (its first
// chosen), so the player picks another thing or presses the button. Picks belong to one state
// of the room: when its version changes (a move by anyone), they are forgotten.
(function () {
  var picked = [];  // the things picked so far
  var pickedAt = null;  // the room's version when they were picked

  function forms() { return document.querySelectorAll("#room-main form.act[data-pointing]"); }

  function optionsOf(form) {
    var select = form.querySelector("select[name=action]");
    var items = select ? Array.prototype.slice.call(select.options) : [form.querySelector("input[name=action]")];
    return items.filter(Boolean).map(function (el) {
      return { el: el, form: form, select: select, points: (el.dataset.points || "").split(" ").filter(Boolean) };
    });
  }

  function naming(option, things) { return things.every(function (t) { return option.points.indexOf(t) >= 0; }); }

  function all() {
    var found = [];
    forms().forEach(function (form) { found = found.concat(optionsOf(form)); });
    return found;
  }

  function things(token) {
    if (token.charAt(0) === "#") {
      var el = document.getElementById(token.slice(1));
      return el && el.closest("#room-main") ? [el] : [];
    }
    var id = token.slice(2);
    return Array.prototype.slice.call(document.querySelectorAll('#room-main .felt .vem-card.group[data-id="' + id + '"]'));
  }

  // Marks what may be picked next (and what was picked), and narrows each list to its options.
  function version() {
    var state = document.getElementById("table-state");
    return state ? state.dataset.version : null;
  }

  function mark() {
    if (version() !== pickedAt) picked = [];
    document.querySelectorAll("#room-main .pickable, #room-main .picked").forEach(function (el) {
      el.classList.remove("pickable", "picked");
      el.removeAttribute("data-picks");
      if (el.dataset.pointTabindex) { el.removeAttribute("tabindex"); el.removeAttribute("role"); delete el.dataset.pointTabindex; }
      if (el.dataset.pointLabel) { el.removeAttribute("aria-label"); delete el.dataset.pointLabel; }
    });
    var options = all();
    if (!options.some(function (o) { return naming(o, picked); })) picked = [];
    options.forEach(function (o) {
      var open = naming(o, picked);
      if (o.select) o.el.hidden = o.el.disabled = !open;
      if (!open) return;
      o.points.forEach(function (token) {
        if (picked.indexOf(token) >= 0) return;
        things(token).forEach(function (el) {
          if (el.closest("label, button, a")) return;  // a card that is a control already keeps its own click
          el.classList.add("pickable");
          var picks = (el.dataset.picks || "").split(" ").filter(Boolean);
          if (picks.indexOf(token) < 0) el.dataset.picks = picks.concat([token]).join(" ");
          if (!el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "0"); el.setAttribute("role", "button"); el.dataset.pointTabindex = "1"; }
          name(el, o.form);
        });
      });
    });
    picked.forEach(function (token) { things(token).forEach(function (el) { el.classList.add("picked"); }); });
    options.forEach(function (o) {
      if (o.select && o.el.selected && o.el.disabled) {
        var first = optionsOf(o.form).find(function (x) { return !x.el.disabled; });
        if (first) o.select.value = first.el.value;
      }
    });
  }

  // A thing to pick is named by what picking it does, the move's word and the thing's own short
  // name ("Cancel it: Bancos + ou - Honestos"), not by all the text of a card; a thing two
  // moves name says both words.
  function name(el, form) {
    var button = form.querySelector("button[type=submit]");
    if (!el.dataset.pointName || !button) return;
    var words = (el.dataset.pointLabel || "").split(" / ").filter(Boolean);
    var word = button.textContent.trim();
    if (words.indexOf(word) < 0) words.push(word);
    el.dataset.pointLabel = words.join(" / ");
    el.setAttribute("aria-label", el.dataset.pointLabel + ": " + el.dataset.pointName);
  }

  function pick(el) {
    if (version() !== pickedAt) picked = [];
    var tokens = (el.dataset.picks || "").split(" ").filter(Boolean);
    var options = all();
    var token = tokens.find(function (t) { return options.some(function (o) { return naming(o, picked.concat([t])); }); });
    if (!token) { picked = []; token = tokens[0]; }
    picked.push(token);
    pickedAt = version();
    var open = options.filter(function (o) { return naming(o, picked); });
    if (open.length === 1) {
      var o = open[0];
      if (o.select) o.select.value = o.el.value;
      picked = [];
      mark();
      o.form.dataset.pointed = "1";  // (read by the browser tests; the form goes with the next frame)
      o.form.requestSubmit();
      return;
    }
    mark();
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("#room-main .pickable");
    if (!el) return;
    event.preventDefault();
    pick(el);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && picked.length) { picked = []; mark(); return; }
    if (event.key !== "Enter" && event.key !== " ") return;
    var el = event.target.closest && event.target.closest("#room-main .pickable");
    if (!el) return;
    event.preventDefault();
    pick(el);
  });
  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:wsAfterMessage", mark);
  document.addEventListener("htmx:afterSettle", mark);
})();
