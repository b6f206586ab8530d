// Vem aí a Troika table: a combo form (class "vem-combo") posts ONE JSON action, like the act
// macro does, built from its data-base JSON and the controls tied to it (inside it, or outside
// with form="its id": the ticked hand cards, the target radios). A control named like a list in
// the base (e.g. "cards") collects every ticked value; other controls give one value; digits
// become numbers. Ticks survive the live re-renders while the form's data-keep key is the same,
// and data-summary forms show a running total (a card ticked "for its Hand Action", in the advanced
// game, goes with its card and adds no Power); an attack or an answer that cannot be legal yet
// (no target, no card, too weak) disables its button, saying why. The server validates anyway.
(function () {
  if (window.vemTable) return;
  window.vemTable = true;
  var kept = {};

  function controls(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.name !== "action" && el.name !== "version";
    });
  }

  function value(raw) {
    return /^-?\d+$/.test(raw) ? parseInt(raw, 10) : raw;
  }

  function ticked(el) {
    return (el.type !== "checkbox" && el.type !== "radio") || el.checked;
  }

  function build(form) {
    var action = JSON.parse(form.dataset.base);
    controls(form).forEach(function (el) {
      if (!ticked(el)) return;
      if (Array.isArray(action[el.name])) action[el.name].push(value(el.value));
      else action[el.name] = value(el.value);
    });
    // an attack's Hand Actions are left out when none is ticked (the engine's canonical form)
    if (Array.isArray(action.actions) && !action.actions.length) delete action.actions;
    form.querySelector("input[name=action]").value = JSON.stringify(action);
    return action;
  }

  // The values of the ticked "for its Hand Action" boxes: those cards add no Power.
  function handActions(form) {
    return controls(form).filter(function (el) { return el.name === "actions" && el.checked; })
      .map(function (el) { return el.value; });
  }

  function sum(form, attribute) {
    var used = attribute === "power" ? handActions(form) : [];
    return controls(form).reduce(function (total, el) {
      var counts = el.name === "cards" && el.checked && used.indexOf(el.value) < 0;
      return total + (counts ? parseInt(el.dataset[attribute] || "0", 10) : 0);
    }, 0);
  }

  // A Hand Action box goes with its card: ticking it ticks the card, unticking the card (or
  // choosing a mode the action is not for) unticks it.
  function pair(form, changed) {
    var mode = form.querySelector("input[name=mode]:checked");
    controls(form).forEach(function (el) {
      if (el.name !== "actions") return;
      var card = controls(form).filter(function (c) { return c.name === "cards" && c.value === el.value; })[0];
      el.disabled = "discardOnly" in el.dataset && Boolean(mode) && mode.value !== "discard";
      if (el.disabled) el.checked = false;
      if (!card) return;
      if (changed === el && el.checked && !card.checked) card.checked = true;
      if (changed !== el && !card.checked) el.checked = false;
    });
  }

  // The total shown, with a word for the Hand Actions' effects (the server counts them).
  function totalText(form, total) {
    var plus = form.querySelector(".summary").dataset.plus;
    return handActions(form).length && plus ? total + " " + plus : total;
  }

  function show(form, name, text) {
    var out = form.querySelector("[data-out=" + name + "]");
    if (out) out.textContent = text;
  }

  // The submit button is disabled while the choice cannot be legal, with the reason as its
  // title and beside it (a phone shows no title; an attack's, once something is picked). It is
  // disabled by aria-disabled, not the attribute, so the keyboard still reaches it and a screen
  // reader reads it with its reason; a submit while it is so is stopped (below).
  function gate(form, reason) {
    var button = form.querySelector("button[type=submit]");
    if (!button || button.dataset.offline) return;
    if (!("title" in button.dataset)) button.dataset.title = button.title;
    button.setAttribute("aria-disabled", reason ? "true" : "false");
    button.title = reason || button.dataset.title;
    var why = form.querySelector("[data-out=why]");
    if (why) why.textContent = reason || "";
  }

  function ticks(form) {
    return controls(form).filter(function (el) { return el.name === "cards" && el.checked; }).length;
  }

  function summarize(form, changed) {
    var kind = form.dataset.summary;
    pair(form, changed);
    var action = build(form);
    var button = form.querySelector("button[type=submit]") || { dataset: {} };
    if (kind === "attack") {
      var mode = form.querySelector("input[name=mode]:checked");
      var target = controls(form).filter(function (el) { return el.name === "target" && el.checked; })[0];
      var total = parseInt(mode ? mode.dataset.basePower : "0", 10) + sum(form, "power");
      show(form, "total", totalText(form, total));
      show(form, "defence", target ? target.dataset.defence : "?");
      show(form, "target", target ? "(" + target.dataset.name + ")" : "");  // what is attacked, named
      // with a Hand Action ticked its bonus is unknown here: the server judges the strength
      gate(form, !target ? button.dataset.needTarget : !ticks(form) ? button.dataset.needCards
        : !handActions(form).length && total <= parseInt(target.dataset.defence, 10) ? button.dataset.tooWeak : "");
      building(form, Boolean(target) || ticks(form) > 0);
    } else if (kind === "add") {
      show(form, "total", totalText(form, parseInt(form.querySelector(".summary").dataset.own, 10) + sum(form, "power")));
      gate(form, ticks(form) ? "" : button.dataset.needCards);
    } else if (kind === "votes") {
      var own = parseInt(form.querySelector(".summary").dataset.own, 10);
      show(form, "total", own + sum(form, "votes") + (parseInt(action.money, 10) || 0));
    }
  }

  // While an attack is being built (a target picked or a card ticked) the other moves fold away,
  // so the table under the sticky status keeps its room (on a phone it had a strip of 184 px);
  // the attack's Cancel unticks it all and brings them back. Before the script runs, or without
  // it, every move shows (static/css/vem-ai-a-troika.css). The table stays where it was on the
  // screen as the moves fold or unfold above it (the browser's scroll anchoring does it most of
  // the time, not always).
  function building(form, on) {
    var cancel = form.querySelector("[data-cancel]");
    if (cancel) cancel.hidden = !on;
    var actions = form.closest(".actions");
    var state = on ? "building" : "idle";
    if (!actions || actions.dataset.attack === state) return;
    var picked = controls(form).filter(function (el) { return el.name === "target" && el.checked; })[0];
    var kept = picked ? picked.closest("label") : document.querySelector("#room-main .felt > .table-status + *");
    var before = kept ? kept.getBoundingClientRect().top : 0;
    actions.dataset.attack = state;
    if (!kept || !actions.isConnected) return;
    requestAnimationFrame(function () {
      var moved = kept.getBoundingClientRect().top - before;
      if (Math.abs(moved) > 1) window.scrollBy(0, moved);
    });
  }

  // (the Cancel button hides itself: the focus goes to the first of the moves it brings back)
  function cancel(form) {
    controls(form).forEach(function (el) {
      if (el.type === "checkbox" || (el.type === "radio" && el.name === "target")) el.checked = false;
    });
    summarize(form);
    remember(form);
    var actions = form.closest(".actions");
    var first = actions && actions.querySelector("button:not([disabled]):not([hidden]), select");
    if (first) first.focus();
  }

  function remember(form) {
    if (!form.dataset.keep || !form.isConnected) return;
    kept[form.dataset.keep] = controls(form).map(function (el) {
      return { name: el.name, value: el.value, checked: el.checked };
    });
  }

  function restore(form) {
    var saved = kept[form.dataset.keep];
    if (!saved) return;
    controls(form).forEach(function (el) {
      saved.forEach(function (s) {
        if (s.name !== el.name) return;
        if (el.type === "checkbox" || el.type === "radio") {
          if (s.value === el.value) el.checked = s.checked;
        } else {
          el.value = s.value;
        }
      });
    });
  }

  function refresh() {
    document.querySelectorAll("form.vem-combo").forEach(function (form) {
      restore(form);
      summarize(form);
    });
  }

  function onEdit(event) {
    var form = event.target.form;
    if (!form || !form.classList.contains("vem-combo")) return;
    summarize(form, event.target);
    remember(form);
  }

  // "input" fires for boxes, selects and typing alike; a "change" also fires while a focused
  // field is swapped out, when the rest of its form is already gone.
  document.addEventListener("input", onEdit);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("form.vem-combo [data-cancel]");
    if (button) cancel(button.form);
  });
  // A tap on a card's label ticks its box without giving it the focus: a focused box is kept
  // clear of the docked hand by the page's scroll padding, and the page scrolled by a third of
  // the screen under the player's finger (a box in the dock, or a target low on the table). The
  // keyboard still reaches each box by Tab, and Space ticks it.
  document.addEventListener("click", function (event) {
    var label = event.target.closest && event.target.closest("#room-main label.pick");
    var box = label && label.querySelector("input");
    if (!box || box.disabled || event.target === box) return;
    event.preventDefault();
    box.checked = box.type === "radio" ? true : !box.checked;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.dispatchEvent(new Event("change", { bubbles: true }));
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("vem-combo")) return;
    var button = form.querySelector("button[type=submit]");
    if (button && button.getAttribute("aria-disabled") === "true") {
      event.preventDefault();  // (a move that cannot be legal yet: its reason shows beside it,
      event.stopPropagation();  // an attack's too once its button is pressed, and is said again)
      form.classList.add("asked");
      var why = form.querySelector("[data-out=why]");
      if (why) {
        var reason = why.textContent;
        why.textContent = "";
        why.textContent = reason;
        why.scrollIntoView({ block: "nearest" });  // (on a phone the moves scroll in their own box)
      }
      return;
    }
    build(form);
  }, true);
  document.addEventListener("htmx:oobAfterSwap", refresh);
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("htmx:wsAfterMessage", refresh);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
})();
