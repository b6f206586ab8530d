// Accessibility helpers for the room page. The status line is rendered afresh with every push,
// and a live region swapped in is not announced, so its text is copied into #status-live, a
// polite live region that stays, after the log's new lines (what the others did, and what the
// seat's own move did: the last few, once a push has settled). Keyboard focus: when an update
// replaces the control that had the focus, the focus moves to the same control in the new
// table if there is one, else to the first shown move the player can make now, else to the
// final result's heading once the game is over, else to the status line (without scrolling),
// or in the waiting room to the control now in its place; a status
// line focused while waiting gives the focus to the first move when the turn comes (its first
// button: a choice's dropdown, opened by Enter, answered nothing); a focus elsewhere (the chat
// box, say) is left alone. For a moment after the focus is moved, Enter and Space on the control
// it was moved to do nothing, and a held key's repeats never do: a second Enter, a key's bounce
// or a tremor played the next move too (a keyboard player's probe).
(function () {
  var lost = null;
  var said = "";
  var heard = null;  // the number of the last log line announced
  var pending = null;
  var NEWEST = 4;  // log lines announced at most, the newest
  var settledTurn = false;  // whether it was the seat's turn once the last push had settled

  function actionOf(el) {
    var form = el.form || (el.closest && el.closest("form"));
    var action = form && form.querySelector("input[name=action]");
    return action ? action.value : null;
  }

  var CONTROLS = "button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), a[href]";

  function keyOf(el) {
    var section = el.closest("#room-main [id]");
    var controls = section ? Array.prototype.slice.call(section.querySelectorAll(CONTROLS)) : [];
    return { id: el.id, action: actionOf(el), name: el.name, value: el.value, adder: !!el.closest(".bot-adders"),
             section: section && section.id, index: controls.indexOf(el), turn: settledTurn };
  }

  // In the waiting room (no status line): its main button once it is enabled (Start, once a bot
  // takes the last free seat), else after a bot added the next free seat's first bot (the seat's
  // new Remove button took the old place, and a second Enter removed the bot), else the control
  // now where the lost one was in its section.
  function samePlace(key) {
    var section = key.section && document.getElementById(key.section);
    if (!section) return null;
    var controls = section.querySelectorAll(CONTROLS);
    var main = section.querySelector(".button.primary:not([disabled])");
    var adder = key.adder && section.querySelector(".bot-adders button:not([disabled])");
    return main || adder || (controls.length ? controls[Math.min(Math.max(key.index, 0), controls.length - 1)] : null);
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

  // A move's controls in the table, in the page's order (a choice's dropdown before its button;
  // the hand's fold button is not a move), and whether one is shown (a button inside a closed
  // confirmation, say, is not: focusing it did nothing and left the focus on the page's body).
  var MOVES = ".felt button:not([disabled]):not(.hand-fold), .felt input:not([disabled]):not([type=hidden]), .felt select:not([disabled])";
  function shown(el) {
    return el.getClientRects().length > 0 && !el.closest("details:not([open]) > :not(summary)");
  }

  function yourTurn() {
    var state = document.getElementById("table-state");
    return !!state && state.dataset.yourTurn === "1";
  }

  // (a status line read while waiting gives the focus up to the moves when the turn comes)
  function nextFocus(main, key) {
    var same = sameControl(main, key);
    var turnCame = yourTurn() && !key.turn;
    if (same && !(turnCame && same.matches(".status-line"))) return same;
    if (yourTurn()) {
      var moves = Array.prototype.filter.call(main.querySelectorAll(MOVES), shown);
      var move = moves.find(function (el) { return el.tagName === "BUTTON"; }) || moves[0];
      if (move) return move;
    }
    // (the game's end: its result's heading, which inview.js brings to the top of the page; the
    // status line at the foot of the screen had the focus out of view)
    return main.querySelector("#final-result > h2") || main.querySelector(".status-line") || samePlace(key) || main;
  }

  // A status line or a result's heading takes the focus without being a stop of the Tab order.
  function focusable(el) {
    if (el.matches(".status-line, #final-result > h2")) el.setAttribute("tabindex", "-1");
    return el;
  }

  function squeezed(el) {
    return el.textContent.replace(/\s+/g, " ").trim();
  }

  // The log's lines after the last one announced, oldest first (none on the page's first load).
  function newLines() {
    var lines = Array.prototype.slice.call(document.querySelectorAll("#log-lines > li[value]"));
    var numbers = lines.map(function (li) { return parseInt(li.getAttribute("value"), 10); });
    var last = numbers.length ? Math.max.apply(null, numbers) : heard;
    var fresh = heard === null ? [] : lines.filter(function (li, i) { return numbers[i] > heard; });
    heard = last;
    return fresh.reverse().slice(-NEWEST).map(squeezed);
  }

  function announce() {
    pending = null;
    settledTurn = yourTurn();
    var region = document.getElementById("status-live");
    var status = document.querySelector("#room-main .status-line");
    var text = status ? squeezed(status) : "";
    var lines = newLines();
    if (region && text && (lines.length || text !== said)) {
      said = text;
      region.textContent = lines.concat([text]).join(" ");
    }
  }

  // (a push swaps several sections: the announcement waits for the last of them)
  function announceSoon() {
    if (pending === null) pending = setTimeout(announce, 0);
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target || event.target;
    var table = old && (old.id === "room-main" || (old.closest && old.closest("#room-main")));  // the table or one of its sections
    if (table && old.contains(document.activeElement) && document.activeElement !== old) {
      lost = keyOf(document.activeElement);
    }
  });
  // (the focus too waits for the push's last section: chosen after the status line's swap
  // alone, it went by the old moves, or by the turn before its table-state came)
  function placeFocus() {
    var main = document.getElementById("room-main");
    if (lost && main && (!document.activeElement || document.activeElement === document.body)) {
      var next = focusable(nextFocus(main, lost));
      next.focus({ preventScroll: true });
      guarded = next;
      guardUntil = Date.now() + SETTLE_MS;
    }
    lost = null;
  }

  var SETTLE_MS = 600;  // (a second Enter a keyboard player pressed came 250 ms after the first)
  var guarded = null, guardUntil = 0, swallowed = null;
  function activating(event) { return event.key === "Enter" || event.key === " "; }
  document.addEventListener("keydown", function (event) {
    if (activating(event) && event.target === guarded && (event.repeat || Date.now() < guardUntil)) {
      swallowed = event.key;
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  document.addEventListener("keyup", function (event) {  // (Space clicks as it is let go)
    if (event.key === swallowed) {
      swallowed = null;
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  document.addEventListener("htmx:oobAfterSwap", function () {
    if (lost) setTimeout(placeFocus, 0);
    announceSoon();
  });
  // Escape closes an open question in the table (Troika's "Troika!" confirmation, a round's
  // results), the focus back on its summary; so does a question's own "no" button (Troika's
  // "Don't call": in the sticky status, the open question covers the moves below it on a phone).
  function closeQuestion(open) {
    open.open = false;
    var summary = open.querySelector(":scope > summary");
    if (summary) summary.focus({ preventScroll: true });
  }
  document.addEventListener("keydown", function (event) {
    var open = event.key === "Escape" && event.target.closest && event.target.closest("#room-main details[open]");
    if (open) closeQuestion(open);
  });
  document.addEventListener("click", function (event) {
    var no = event.target.closest && event.target.closest("#room-main details[open] [data-close-question]");
    if (no) closeQuestion(no.closest("details"));
    // a way back to a move's button (Vem aí's, after the hand it is built from): the button
    // itself takes the focus, not its form (the page's body had it)
    var back = event.target.closest && event.target.closest("a[data-to-button]");
    var form = back && document.querySelector(back.getAttribute("href"));
    var button = form && form.querySelector("button[type=submit]:not([hidden])");
    if (button) {
      event.preventDefault();
      button.focus();
    }
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", announce);
  else announce();
})();
