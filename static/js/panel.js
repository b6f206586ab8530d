// The room's log-and-chat panel: beside the table on a screen at least 1200 px wide, a drawer
// on a narrower one. The bar's button opens and closes it (open by default on a wide screen,
// closed on a phone; the reader's choice is kept for each of the two, in localStorage); the
// chat's "Hide" button closes it too, and Escape closes the drawer. Chat lines (and any time a
// page marks "local", such as a held seat's) show their time in the reader's time zone. While
// the panel is closed, or the tab hidden, the button counts the other players' lines not read
// yet: the id of the last line read is kept for the page (localStorage), so a reload counts the
// same.
(function () {
  var WIDE = window.matchMedia("(min-width: 1200px)");
  var READ = "arena-read:" + location.pathname;

  function shell() { return document.querySelector(".room-shell"); }
  function kept(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
  function keep(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* storage off */ } }
  function sideKey() { return "arena-side:" + (WIDE.matches ? "wide" : "narrow"); }

  function isOpen() {
    var chosen = kept(sideKey());
    return chosen === null ? WIDE.matches : chosen === "open";
  }

  function lines() {
    return Array.prototype.slice.call(document.querySelectorAll("#chat-log li[data-id]"));
  }

  function localTimes() {
    document.querySelectorAll("#chat-log time[datetime]:not([data-local]), time.local[datetime]:not([data-local])").forEach(function (el) {
      var at = el.getAttribute("datetime");
      var when = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(at) ? at : at + "Z");  // the server's times are UTC
      if (isNaN(when)) return;
      var lang = document.documentElement.lang || [];  // the page's language, not the browser's ("02:26", never "02:26 AM" on a Portuguese page)
      el.textContent = when.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
      el.title = when.toLocaleString(lang);
      el.dataset.local = "1";
    });
  }

  function unread() {
    var open = isOpen() && !document.hidden;
    var read = parseInt(kept(READ) || "0", 10);
    var newest = lines().reduce(function (most, li) { return Math.max(most, parseInt(li.dataset.id, 10)); }, 0);
    if (open && newest > read) keep(READ, String(newest));
    var count = open ? 0 : lines().filter(function (li) {
      return parseInt(li.dataset.id, 10) > read && !li.classList.contains("mine");
    }).length;
    var badge = document.getElementById("unread");
    var button = document.getElementById("side-toggle");
    if (!badge || !button) return;
    badge.hidden = count === 0;
    badge.textContent = count ? String(count) : "";
    var words = count === 1 ? button.dataset.unreadOne : (button.dataset.unreadMany || "").replace("{n}", count);
    badge.setAttribute("aria-label", count ? words : "");
  }

  function show() {
    var room = shell();
    if (!room) return;
    var open = isOpen();
    room.dataset.side = open ? "open" : "closed";
    var button = document.getElementById("side-toggle");
    if (button) button.setAttribute("aria-expanded", String(open));
    unread();
  }

  function stickToEnd(log, wasAtEnd) {
    if (log && wasAtEnd) log.scrollTop = log.scrollHeight;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#side-toggle");
    if (!button) return;
    keep(sideKey(), isOpen() ? "closed" : "open");
    show();
    var log = document.getElementById("chat-log");
    if (isOpen() && log) {
      stickToEnd(log, true);
      // Into the drawer: its chat box by keyboard or mouse, its Hide button by touch (a text
      // box focused there brings the phone's keyboard up over the lines just opened to read).
      var into = document.querySelector(event.pointerType === "touch" ? "[data-side-close]" : ".chat-form input");
      if (!WIDE.matches) (into || log).focus();
    }
  });
  function close() {
    keep(sideKey(), "closed");
    show();
    var button = document.getElementById("side-toggle");
    if (button) button.focus();
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-side-close]")) close();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !WIDE.matches && isOpen()) close();
  });
  var atEnd = true;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var log = document.getElementById("chat-log");
    if (log && event.detail.target && event.detail.target.id === "chat-log") atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    localTimes();  // (the chat's lines, and any other time a pushed section shows: the waiting room's)
    var log = document.getElementById("chat-log");
    if (!log || !event.detail.target || event.detail.target.id !== "chat-log") return;
    stickToEnd(log, atEnd);
    unread();
  });
  document.addEventListener("visibilitychange", unread);
  WIDE.addEventListener("change", show);
  function start() {
    localTimes();
    show();
    stickToEnd(document.getElementById("chat-log"), true);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
