/// The dashboard's script: live updates from `/events` (server-sent events) replace a
/// widget's card in place, without a page reload; buttons and the add form send write
/// actions with the token as a bearer header (a cookie alone never writes, so another site
/// cannot make the browser act); a click on a widget's button or toggle taps it; the scrubber
/// shows one timeline entry at a time.
/// `window.widgethostUpdates` counts the updates applied (browser tests and `make bench`).
enum DashboardScript {
    static let source = #"""
(function () {
  "use strict";
  var token = document.querySelector('meta[name="wh-token"]').getAttribute("content");
  var status = document.getElementById("wd-status");
  var connection = document.getElementById("wd-connection");
  window.widgethostUpdates = 0;
  window.widgethostLastUpdate = null;
  function say(text) { if (status) status.textContent = text; }
  function card(id) {
    var cards = document.querySelectorAll(".wd-card");
    for (var i = 0; i < cards.length; i++) if (cards[i].getAttribute("data-id") === id) return cards[i];
    return null;
  }
  function place(update) {
    var old = card(update.id);
    var holder = document.createElement("div");
    holder.innerHTML = update.html;
    var fresh = holder.firstElementChild;
    if (old) {
      old.replaceWith(fresh);
    } else {
      if (document.getElementById("wd-detail")) return;
      var grid = document.getElementById(update.family.indexOf("accessory") === 0 ? "wd-lock" : "wd-home");
      if (grid) grid.appendChild(fresh);
    }
    placed(update.id);
    if (window.widgethostTick) window.widgethostTick();
    window.widgethostUpdates += 1;
    window.widgethostLastUpdate = { id: update.id, at: Date.now(), sent: update.sent };
  }
  if (window.EventSource) {
    var source = new EventSource("/events");
    source.onopen = function () { if (connection) connection.textContent = "live"; };
    source.onerror = function () { if (connection) connection.textContent = "reconnecting…"; };
    source.addEventListener("card", function (event) { place(JSON.parse(event.data)); });
    source.addEventListener("activities", function (event) {
      var panel = document.getElementById("wd-activities");
      if (panel) panel.innerHTML = JSON.parse(event.data).html;
      if (window.widgethostTick) window.widgethostTick();
      window.widgethostUpdates += 1;
    });
    source.addEventListener("removed", function (event) {
      var gone = card(JSON.parse(event.data).id);
      if (gone) gone.remove();
      window.widgethostUpdates += 1;
    });
  }
  function send(method, params) {
    return fetch("/api/" + method, {
      method: "POST",
      headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json" },
      body: JSON.stringify(params)
    }).then(function (response) {
      return response.json().then(function (reply) {
        if (reply.error) say(method + ": " + reply.error.message);
        else say(method + ": " + JSON.stringify(reply.result));
        return reply;
      });
    }).catch(function (error) { say(method + ": " + error); });
  }
  // A click on a Button(intent:) or Toggle(isOn:intent:) in a widget taps it, as `widgethost
  // tap` does. The Toggle flips and invalidatable content dims at once, and stays so on any
  // card that arrives before the host's card for the tap (one drawn while the intent runs);
  // from then on the host's cards say what is shown (its reload, or the rollback). A tap the
  // host refused or never drew is undone here when the answer comes.
  var pending = {};
  function box(id) {
    var boxes = document.querySelectorAll(".wd-card .wh-widget[data-wh-id]");
    for (var i = 0; i < boxes.length; i++) if (boxes[i].getAttribute("data-wh-id") === id) return boxes[i];
    return null;
  }
  function flip(widget, tap) {
    if (tap.toggle) {
      var buttons = widget.querySelectorAll("[data-wh-button]");
      for (var i = 0; i < buttons.length; i++)
        if (buttons[i].getAttribute("data-wh-button") === tap.button) buttons[i].classList.toggle("wh-on");
    }
    widget.classList.toggle("wh-intent-running");
  }
  function placed(id) {
    var tap = pending[id], widget = box(id);
    if (!tap || !widget) return;
    if (widget.classList.contains("wh-intent-running")) tap.seen = true;
    else if (!tap.seen) flip(widget, tap);
  }
  function tap(target, event) {
    event.preventDefault();
    event.stopPropagation();
    var widget = target.closest(".wh-widget"), id = widget && widget.getAttribute("data-wh-id");
    if (!id || pending[id]) return;
    var button = target.getAttribute("data-wh-button");
    var state = pending[id] = { button: button, toggle: target.classList.contains("wh-toggle"), seen: false };
    flip(widget, state);
    window.widgethostTaps = (window.widgethostTaps || 0) + 1;
    function end(failed) {
      delete pending[id];
      var shown = box(id);
      if (failed && !state.seen && shown && shown.classList.contains("wh-intent-running")) flip(shown, state);
    }
    fetch("/api/widgets/" + encodeURIComponent(id) + "/tap", {
      method: "POST",
      headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json" },
      body: JSON.stringify({ button: button })
    }).then(function (response) { return response.json(); }).then(function (reply) {
      var result = reply.result;
      if (reply.error) say("tap " + id + " " + button + ": " + reply.error.message);
      else say("tap " + id + " " + button + ": " + (result.intent.title || result.intent.type) + " " + result.outcome
               + (result.detail ? " — " + result.detail : ""));
      window.widgethostLastTap = reply;
      end(!!reply.error || result.outcome !== "succeeded");
    }).catch(function (error) { say("tap: " + error); end(true); });
  }
  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-wh-button]") : null;
    if (target) return tap(target, event);
    var button = event.target.closest ? event.target.closest("button[data-action]") : null;
    if (!button) return;
    event.preventDefault();
    var method = button.getAttribute("data-action"), params = {};
    if (button.hasAttribute("data-id")) params.id = button.getAttribute("data-id");
    if (button.hasAttribute("data-kind")) params.kind = button.getAttribute("data-kind");
    if (button.hasAttribute("data-app")) params.app = button.getAttribute("data-app");
    if (button.hasAttribute("data-foreground")) params.foreground = true;
    send(method, params);
  });
  var add = document.getElementById("wd-add");
  if (add) add.addEventListener("submit", function (event) {
    event.preventDefault();
    send("addWidget", { kind: add.elements.kind.value, family: add.elements.family.value });
  });
  var scrubber = document.getElementById("wd-scrubber");
  if (scrubber) {
    var label = document.getElementById("wd-scrubber-date");
    var show = function () {
      var entries = document.querySelectorAll(".wd-entry");
      for (var i = 0; i < entries.length; i++) {
        var on = entries[i].getAttribute("data-index") === scrubber.value;
        entries[i].hidden = !on;
        if (on && label) label.textContent = entries[i].getAttribute("data-date") + " (" + entries[i].getAttribute("data-when") + ")";
      }
    };
    scrubber.addEventListener("input", show);
    show();
  }
})();
"""#
}
