// Accessibility helpers for the room page. The status line is rendered afresh with every push,
// and a live region swapped in is not announced, so its text is copied into #status-live, a
// polite live region that stays. Keyboard focus: when an update replaces the control that had
// the focus, the focus moves to the same control in the new table if there is one, else to the
// first move the player can make now, else to the status line (without scrolling); a focus
// elsewhere (the chat box, say) is left alone.
(function () {
  var lost = null;
  var said = "";

  function actionOf(el) {
    var form = el.form || (el.closest && el.closest("form"));
    var action = form && form.querySelector("input[name=action]");
    return action ? action.value : null;
  }

  function keyOf(el) {
    return { id: el.id, action: actionOf(el), name: el.name, value: el.value };
  }

  function sameControl(main, key) {
    if (key.id && document.getElementById(key.id)) return document.getElementById(key.id);
    var match = null;
    if (key.action) {
      main.querySelectorAll("input[name=action]").forEach(function (input) {
        if (!match && input.value === key.action) match = input.form.querySelector("button");
      });
    } else if (key.name) {
      main.querySelectorAll("[name]").forEach(function (el) {
        if (!match && el.name === key.name && el.value === key.value) match = el;
      });
    }
    return match && !match.disabled ? match : null;
  }

  function nextFocus(main, key) {
    var same = sameControl(main, key);
    if (same) return same;
    var state = document.getElementById("table-state");
    if (state && state.dataset.yourTurn === "1") {
      var move = main.querySelector(".felt button:not([disabled]), .felt input:not([disabled]):not([type=hidden])");
      if (move) return move;
    }
    var status = main.querySelector(".status-line");
    if (status) status.setAttribute("tabindex", "-1");
    return status || main;
  }

  function announce() {
    var region = document.getElementById("status-live");
    var status = document.querySelector("#room-main .status-line");
    var text = status ? status.textContent.replace(/\s+/g, " ").trim() : "";
    if (region && text && text !== said) {
      said = text;
      region.textContent = text;
    }
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target || event.target;
    var table = old && (old.id === "room-main" || (old.closest && old.closest("#room-main")));  // the table or one of its sections
    if (table && old.contains(document.activeElement) && document.activeElement !== old) {
      lost = keyOf(document.activeElement);
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var main = document.getElementById("room-main");
    if (lost && main && (!document.activeElement || document.activeElement === document.body)) {
      nextFocus(main, lost).focus({ preventScroll: true });
    }
    lost = null;
    announce();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", announce);
  else announce();
})();
