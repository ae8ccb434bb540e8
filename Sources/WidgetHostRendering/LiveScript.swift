/// The page's one script: it keeps date-relative text and timer progress counting, without
/// a reload, from the instant a widget was rendered for (`data-wh-at` on a `.wh-clock`
/// ancestor) plus the time since that widget reached the page (the page's load, or a live
/// update that replaced it later, which calls `widgethostTick()`). It reads only numbers and enum names
/// from `data-` attributes the renderer wrote, and writes only `textContent` and widths.
/// The arithmetic is `DateText`'s. A dashboard can serve it as a file instead (`source`).
public enum LiveScript {
    public static let source = #"""
(function () {
  "use strict";
  var units = [[31536000, "year"], [2592000, "month"], [604800, "week"], [86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];
  function pad(v) { return v < 10 ? "0" + v : "" + v; }
  function parts(total) {
    var rest = total, out = [];
    for (var i = 0; i < units.length; i++) {
      var v = Math.floor(rest / units[i][0]);
      rest -= v * units[i][0];
      if (v > 0) out.push(v + " " + units[i][1] + (v === 1 ? "" : "s"));
    }
    return out;
  }
  function clock(seconds, showsHours) {
    var whole = Math.floor(seconds), s = whole % 60, m = Math.floor(whole / 60) % 60, h = Math.floor(whole / 3600);
    if (showsHours && h > 0) return h + ":" + pad(m) + ":" + pad(s);
    return (showsHours ? m : Math.floor(whole / 60)) + ":" + pad(s);
  }
  function timerSeconds(start, end, down, now) {
    var total = Math.max(0, end - start), elapsed = Math.min(total, Math.max(0, now - start));
    return down ? total - elapsed : elapsed;
  }
  function text(el, now) {
    var style = el.getAttribute("data-wh-style");
    if (style === "timerInterval") {
      return clock(timerSeconds(+el.getAttribute("data-wh-start"), +el.getAttribute("data-wh-end"),
        el.getAttribute("data-wh-down") === "1", now), el.getAttribute("data-wh-hours") === "1");
    }
    var interval = +el.getAttribute("data-wh-date") - now, p = parts(Math.floor(Math.abs(interval)));
    if (style === "relative") return p.length ? p.slice(0, 2).join(", ") : "0 seconds";
    if (style === "offset") return (interval < 0 ? "-" : "+") + (p.length ? p[0] : "0 seconds");
    if (style === "timer") return clock(Math.abs(interval), true);
    return null;
  }
  function tick() {
    var clocks = document.querySelectorAll(".wh-clock");
    for (var c = 0; c < clocks.length; c++) {
      var since = clocks[c].whSince || (clocks[c].whSince = Date.now());
      var now = +clocks[c].getAttribute("data-wh-at") + (Date.now() - since) / 1000;
      var live = clocks[c].querySelectorAll("[data-wh-style]");
      for (var i = 0; i < live.length; i++) {
        var value = text(live[i], now);
        if (value !== null && live[i].textContent !== value) live[i].textContent = value;
      }
      var bars = clocks[c].querySelectorAll("[data-wh-progress-start]");
      for (var j = 0; j < bars.length; j++) {
        var start = +bars[j].getAttribute("data-wh-progress-start"), end = +bars[j].getAttribute("data-wh-progress-end");
        var total = end - start, f = total > 0 ? Math.min(1, Math.max(0, (now - start) / total)) : 1;
        if (bars[j].getAttribute("data-wh-down") === "1") f = 1 - f;
        bars[j].style.width = (Math.round(f * 10000) / 100) + "%";
      }
    }
  }
  window.widgethostTick = tick;
  tick();
  setInterval(tick, 1000);
})();
"""#
}
