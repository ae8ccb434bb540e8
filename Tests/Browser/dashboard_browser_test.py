#!/usr/bin/python3
"""The live dashboard in a real browser: Debian's headless Chromium driven by chromedriver
through selenium (Debian's python3-selenium), against a running widgethostd with the
example widgets. Also parses /metrics with prometheus_client's text-format parser.

Run by Tests/EndToEndTests/DashboardBrowserTests.swift (make test installs the packages:
chromium chromium-driver python3-selenium python3-prometheus-client). On its own:

    Tests/Browser/dashboard_browser_test.py --url "$(cat .run/state/dashboard.url)" \
        --bin .build/debug --socket .run/widgethost.sock --app-groups .run/AppGroups \
        --screenshot /tmp/dashboard.png

Prints one line per check and "N passed, M failed"; exits 1 if any failed.
--bench N instead measures N live updates (entryChanged → page updated) and prints JSON.
"""
import argparse
import os
import datetime
import json
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from prometheus_client.parser import text_string_to_metric_families
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

SIZES = {
    "systemSmall": (170, 170), "systemMedium": (364, 170), "systemLarge": (364, 382),
    "systemExtraLarge": (715, 340), "accessoryCircular": (76, 76), "accessoryRectangular": (172, 76),
    "accessoryInline": (257, 26),
}

passed, failed = 0, 0


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
        print("ok    " + what, flush=True)
    else:
        failed += 1
        print("FAIL  " + what, flush=True)


def run(args, *command):
    env = {"PATH": "/usr/bin:/bin", "TZ": "UTC", "WIDGETHOST_SOCKET": args.socket}
    result = subprocess.run([args.bin + "/" + command[0], *command[1:]], env=env, capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        print("  $ " + " ".join(command) + "\n" + result.stdout + result.stderr, flush=True)
    return result


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1500,1200",
                 "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(predicate, timeout, step=0.01):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


CARD_TEXT = "var c = document.querySelector('.wd-card[data-kind=\"' + arguments[0] + '\"] .wh-widget'); return c ? c.textContent : null;"


def metrics(base, token):
    request = urllib.request.Request(base + "/metrics", headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def total(samples, name, **labels):
    return sum(value for (sample, sample_labels), value in samples.items()
               if sample == name and all(dict(sample_labels).get(k) == v for k, v in labels.items()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the URL with ?token= (dashboard.url)")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--socket", required=True)
    parser.add_argument("--app-groups", required=True)
    parser.add_argument("--screenshot")
    parser.add_argument("--widgets", type=int, default=5)
    parser.add_argument("--bench", type=int, default=0)
    parser.add_argument("--pid", type=int, help="widgethostd's pid: --bench also counts its idle wake-ups")
    parser.add_argument("--idle-seconds", type=float, default=31)
    args = parser.parse_args()
    base = args.url.split("/?")[0]
    token = urllib.parse.parse_qs(urllib.parse.urlparse(args.url).query)["token"][0]

    driver = browser()
    try:
        driver.get(args.url)
        cards = wait_for(lambda: len(driver.find_elements("css selector", ".wd-card")) >= args.widgets, 10)
        if args.bench:
            return bench(args, driver)

        # Every widget, each box at its family's points.
        boxes = driver.execute_script(
            "return Array.from(document.querySelectorAll('.wd-card .wh-widget')).map(function (e) {"
            " var r = e.getBoundingClientRect(); return [e.getAttribute('data-wh-id'), e.getAttribute('data-wh-family'), r.width, r.height]; });")
        check(cards and len(boxes) == args.widgets, "the dashboard shows all %d widgets (%d)" % (args.widgets, len(boxes)))
        for widget_id, family, width, height in boxes:
            expected = SIZES.get(family)
            check(expected is not None and abs(width - expected[0]) < 0.5 and abs(height - expected[1]) < 0.5,
                  "%s (%s) measures %gx%g points" % (widget_id, family, width, height))
        lock = driver.execute_script("return document.querySelectorAll('#wd-lock .wd-card').length")
        check(lock == 1, "the lock screen holds the accessory widget")

        # A reload from the shell changes the page within 1 s, without a page reload.
        driver.execute_script("window.notReloaded = 'yes';")
        today = datetime.datetime.now(datetime.timezone.utc).strftime("%m-%d")
        check(run(args, "birthdays", "add", "Zelda Testwidget", today, "--no-reload",
                  "--app-groups", args.app_groups).returncode == 0, "birthdays add (the app writes its data)")
        before = driver.execute_script(CARD_TEXT, "BirthdayHomeWidget") or ""
        started = time.monotonic()
        reload = run(args, "widgethost", "reload", "--kind", "BirthdayHomeWidget", "--foreground")
        changed = wait_for(lambda: "Zelda Testwidget" in (driver.execute_script(CARD_TEXT, "BirthdayHomeWidget") or ""), 1.0 - (time.monotonic() - started))
        elapsed = time.monotonic() - started
        check(reload.returncode == 0 and "Zelda Testwidget" not in before, "widgethost reload --foreground started")
        check(changed, "the page shows the new entry %.0f ms after widgethost reload began (limit 1000 ms)" % (elapsed * 1000))
        check(driver.execute_script("return window.notReloaded") == "yes", "... without a page reload")

        # A timer counts by itself.
        timer = "var t = document.querySelector('.wd-card[data-kind=\"LucidPalWidget\"] [data-wh-style=\"timerInterval\"]'); return t ? t.textContent : null;"
        first = driver.execute_script(timer)
        time.sleep(2.2)
        second = driver.execute_script(timer)
        check(first is not None and second is not None and first != second, "a timer text advances by itself (%s → %s)" % (first, second))

        # Write actions are refused without the token.
        status = driver.execute_async_script(
            "var done = arguments[0]; fetch('/api/recordView', {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({id: 'w1'})}).then(function (r) { done(r.status); });")
        check(status == 403, "a write from the page with the cookie but no bearer token is refused (%s)" % status)
        try:
            urllib.request.urlopen(urllib.request.Request(base + "/api/recordView", data=b'{"id":"w1"}', method="POST"), timeout=5)
            code = 200
        except urllib.error.HTTPError as error:
            code = error.code
        check(code == 401, "a write with no token at all is refused (%s)" % code)
        button = driver.find_element("css selector", '.wd-card[data-kind="WeightWidget"] button[data-action="recordView"]')
        button.click()
        said = wait_for(lambda: driver.find_element("id", "wd-status").text, 5)
        check(said.startswith("recordView: {"), "the page's own button records a view with the token (%s)" % said)

        if args.screenshot:
            driver.save_screenshot(args.screenshot)
            print("screenshot: " + args.screenshot, flush=True)

        if os.path.exists(args.bin + "/pizza"):
            live_activity(args, driver)

        if driver.find_elements("css selector", '.wd-card[data-kind="TasksWidget"]'):
            taps(args, driver)

        # Clicking a widget opens its timeline (a scrubber over the entries) and reload history.
        driver.find_element("css selector", '.wd-card[data-kind="BirthdayHomeWidget"] a.wd-open').click()
        scrubber = wait_for(lambda: driver.find_elements("id", "wd-scrubber"), 5)
        check(bool(scrubber), "clicking a widget opens its timeline with a scrubber")
        if scrubber:
            entries = driver.execute_script("return document.querySelectorAll('.wd-entry').length")
            driver.execute_script(
                "var s = document.getElementById('wd-scrubber'); s.value = s.max; s.dispatchEvent(new Event('input'));")
            shown = driver.execute_script(
                "var e = document.querySelector('.wd-entry:not([hidden])'); return e ? e.getAttribute('data-index') : null;")
            check(entries >= 1 and shown == str(entries - 1), "the scrubber shows the last of %d entries" % entries)
        rows = driver.execute_script("return document.querySelectorAll('.wd-history tr').length")
        check(rows >= 3, "the reload history lists this daemon's reloads (%d rows)" % rows)

        # /metrics after reloads, a deferral and a kill.
        run(args, "widgethost", "reload", "--kind", "BirthdayHomeWidget")
        deferred = run(args, "widgethost", "reload", "--kind", "BirthdayHomeWidget")
        check("deferred" in deferred.stdout, "a second budgeted reload is deferred")
        run(args, "widgethost", "add", "SleeperWidget", "--family", "systemSmall")
        samples = wait_for(lambda: (lambda s: s if total(s, "widgethost_extension_kills_total") >= 1 else None)(metrics(base, token)), 15, 0.2)
        samples = samples or metrics(base, token)
        reloads = total(samples, "widgethost_reloads_total")
        check(reloads >= args.widgets + 2, "widgethost_reloads_total counts every reload (%g)" % reloads)
        check(total(samples, "widgethost_reloads_total", outcome="success", charge="exempt", reason="added") >= args.widgets,
              "... the added widgets' exempt reloads")
        check(total(samples, "widgethost_reloads_total", charge="exempt", reason="foreground") == 1, "... the foreground one")
        check(total(samples, "widgethost_reloads_total", charge="budgeted") == 1, "... the budgeted one")
        check(total(samples, "widgethost_reload_deferrals_total", reason="minInterval") == 1, "widgethost_reload_deferrals_total{reason=minInterval} is 1")
        check(total(samples, "widgethost_extension_kills_total", cause="timedOut") == 1, "widgethost_extension_kills_total{cause=timedOut} is 1")
        check(total(samples, "widgethost_widgets") == args.widgets + 1, "widgethost_widgets is %d" % (args.widgets + 1))
        check(total(samples, "widgethost_budget_used", kind="BirthdayHomeWidget") == 1, "widgethost_budget_used of BirthdayHomeWidget is 1")
        check(total(samples, "widgethost_control_request_duration_seconds_count") > 0, "control requests are timed")
    finally:
        driver.quit()
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


TASKS = '.wd-card[data-kind="TasksWidget"]'
TASKS_TEXT = "var c = document.querySelector('" + TASKS + " .wh-widget'); return c ? c.textContent : '';"


PRESENTATIONS = {"lockScreen": (371, 160), "compactLeading": (52.33, 36.67), "compactTrailing": (52.33, 36.67),
                 "minimal": (36.67, 36.67), "expanded.leading": (92, 70), "expanded.trailing": (92, 70),
                 "expanded.center": (187, 70), "expanded.bottom": (371, 90)}
PANEL_TEXT = "var p = document.getElementById('wd-activities'); return p ? p.textContent : '';"


def live_activity(args, driver):
    """The pizza app starts a Live Activity; PizzaDelivery.appex draws it; the panel shows it live."""
    driver.execute_script("window.notReloaded = 'yes';")
    started = run(args, "pizza", "start")
    check(started.returncode == 0, "pizza start (ActivityKit over the control socket)")
    activity = started.stdout.split()[0] if started.stdout.split() else "a1"
    shown = wait_for(lambda: "Order #12345" in (driver.execute_script(PANEL_TEXT) or ""), 5)
    check(shown, "the Live Activities panel shows %s's Lock Screen view, without a page reload" % activity)
    boxes = driver.execute_script(
        "return Array.from(document.querySelectorAll('#wd-activities [data-wh-presentation]')).map(function (e) {"
        " var r = e.getBoundingClientRect(); return [e.getAttribute('data-wh-presentation'), r.width, r.height]; });")
    seen = set()
    for name, width, height in boxes:
        expected = PRESENTATIONS.get(name)
        seen.add(name)
        check(expected is not None and abs(width - expected[0]) < 0.5 and abs(height - expected[1]) < 0.5,
              "%s measures %gx%g points" % (name, width, height))
    check(seen == set(PRESENTATIONS), "every presentation is drawn: %s" % sorted(seen))
    islands = driver.execute_script("return document.querySelectorAll('#wd-activities [data-wh-island]').length")
    check(islands == 3, "its Dynamic Island in three presentations (compact, minimal, expanded): %d" % islands)
    updated = run(args, "pizza", "update", activity, "--driver", "John")
    changed = wait_for(lambda: "John is on the way" in (driver.execute_script(PANEL_TEXT) or ""), 5)
    check(updated.returncode == 0 and changed, "an update from the app is drawn again and shown live")
    check(driver.execute_script("return window.notReloaded") == "yes", "... without a page reload")
    if args.screenshot:
        driver.execute_script("document.getElementById('wd-activities').scrollIntoView()")
        shot = args.screenshot.replace(".png", "-activities.png")
        driver.save_screenshot(shot)
        print("screenshot: " + shot, flush=True)
    ended = run(args, "pizza", "end", activity, "--immediate")
    gone = wait_for(lambda: "Order #12345" not in (driver.execute_script(PANEL_TEXT) or ""), 5)
    check(ended.returncode == 0 and gone, "ended with .immediate, it leaves the panel")


def control(driver, button):
    return driver.find_element("css selector", TASKS + ' [data-wh-button="%s"]' % button)


def is_on(driver, button):
    return driver.execute_script(
        "var b = document.querySelector(arguments[0]); return !!b && b.classList.contains('wh-on');",
        TASKS + ' [data-wh-button="%s"]' % button)


def click(driver, button):
    """Clears the page's status line, then clicks, so that `said` waits for this tap's answer.
    Returns whether the control shows on right after the click, in the same script (a fast
    intent's whole round trip may end before another call from here)."""
    driver.execute_script("document.getElementById('wd-status').textContent = '';")
    return driver.execute_script(
        "arguments[0].click(); var b = document.querySelector(arguments[1]);"
        " return !!b && b.classList.contains('wh-on');",
        control(driver, button), TASKS + ' [data-wh-button="%s"]' % button)


def said(driver, prefix, timeout=5):
    return wait_for(lambda: (lambda text: text if text.startswith(prefix) else None)(
        driver.find_element("id", "wd-status").text), timeout) or driver.find_element("id", "wd-status").text


def taps(args, driver):
    """Buttons and toggles in a widget (Tests/Fixtures/Extensions/intents.py): a click taps
    them through the control path; the tapped widget reloads; a Toggle flips at once and rolls
    back when its intent fails; invalidatable content dims while the core runs the intent."""
    page = driver.current_url
    started = time.monotonic()
    click(driver, "b1")
    reloaded = wait_for(lambda: "1 done" in driver.execute_script(TASKS_TEXT), 3)
    check(reloaded, "clicking Done runs its intent and the widget reloads: it shows \"1 done\" after %.0f ms"
          % ((time.monotonic() - started) * 1000))
    check(driver.current_url == page, "... and the click does not open the widget's page")
    text = said(driver, "tap ")
    check(text.startswith("tap w") and "Mark done succeeded" in text, "... the page says so (%s)" % text)

    check(click(driver, "b6"), "clicking the Lamp toggle shows it on at once")
    text = said(driver, "tap ")
    check("Lamp succeeded" in text, "... its intent succeeds (%s)" % text)
    settled = "return !document.querySelector(arguments[0] + ' .wd-intent, ' + arguments[0] + ' .wd-running');"
    check(wait_for(lambda: driver.execute_script(settled, TASKS) and is_on(driver, "b6"), 3),
          "... and it is still on once the widget has reloaded")

    check(click(driver, "b7"), "clicking the Fan toggle shows it on at once")
    text = said(driver, "tap ")
    check("Fan failed — the fan is unplugged" in text, "... its intent fails (%s)" % text)
    check(wait_for(lambda: not is_on(driver, "b7"), 3), "... and the toggle rolls back to off")

    updates = driver.execute_script("return window.widgethostUpdates")
    click(driver, "b8")
    # The host's card while the intent runs: the core's state, not the page's guess.
    running = wait_for(lambda: driver.execute_script(
        "return window.widgethostUpdates > arguments[0] && !!document.querySelector(arguments[1] + ' .wd-intent')",
        updates, TASKS), 1.2)
    check(running, "while Slow runs, the host's card says so")
    opacity = driver.execute_script(
        "var e = document.querySelector(arguments[0] + ' .wh-invalidatable > *');"
        " return e ? parseFloat(getComputedStyle(e).opacity) : null;", TASKS)
    check(opacity is not None and opacity < 0.5, "... and the invalidatable count is dimmed (opacity %s)" % opacity)
    if args.screenshot and running:
        shot = args.screenshot.replace(".png", "-tap.png")
        driver.save_screenshot(shot)
        print("screenshot: " + shot, flush=True)
    check(wait_for(lambda: "2 done" in driver.execute_script(TASKS_TEXT), 4), "... then the widget reloads: \"2 done\"")
    opacity = driver.execute_script(
        "var e = document.querySelector(arguments[0] + ' .wh-invalidatable > *');"
        " return e ? parseFloat(getComputedStyle(e).opacity) : null;", TASKS)
    check(opacity == 1 and not driver.find_elements("css selector", TASKS + " .wd-intent"),
          "... no longer dimmed (opacity %s)" % opacity)


def bench(args, driver):
    """entryChanged → page updated: the time from the server's send (right after the step
    that announced it) to the card replaced in the page, and from `widgethost reload` to it."""
    pushed, whole = [], []
    for index in range(args.bench):
        count = driver.execute_script("return window.widgethostUpdates")
        started = time.time() * 1000
        run(args, "widgethost", "reload", "--kind", "BirthdayHomeWidget", "--foreground")
        # The reload's last card: the update after which the card no longer says "reloading".
        wait_for(lambda: driver.execute_script(
            "return window.widgethostUpdates > arguments[0] + 1 && !document.querySelector('.wd-card .wd-running')", count), 3)
        last = driver.execute_script("return window.widgethostLastUpdate")
        if last and last.get("sent"):
            pushed.append(last["at"] - last["sent"])
            whole.append(last["at"] - started)
        time.sleep(0.05)
    figures = {"updates": len(pushed), "sendToPageMsMedian": statistics.median(pushed) if pushed else None,
               "reloadToPageMsMedian": statistics.median(whole) if whole else None,
               "reloadToPageMsMax": max(whole) if whole else None}
    if args.pid:
        # Idle means no extension running: the last reload's process is kept for
        # extension.idle_timeout (30 s), and its stop (the timer, SIGTERM, the exit) would
        # count as the page's wake-ups.
        figures["extensionStoppedAfterSeconds"] = wait_for_no_children(args.pid, 45)
        time.sleep(2)
        figures["idleWakeupsOpen"] = wakeups(args.pid, args.idle_seconds)
        figures["idleSecondsOpen"] = args.idle_seconds
    driver.quit()
    if args.pid:
        time.sleep(2)
        figures["idleWakeupsClosed"] = wakeups(args.pid, 10)
        figures["idleSecondsClosed"] = 10
    print(json.dumps(figures))
    return 0


def wait_for_no_children(pid, limit):
    """Waits until `pid` has no child process (its extensions stopped), at most `limit`
    seconds; returns how long it waited."""
    import glob
    started = time.time()
    while time.time() - started < limit:
        children = False
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                with open(stat) as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                children = True
                break
        if not children:
            break
        time.sleep(0.5)
    return round(time.time() - started, 1)


def wakeups(pid, seconds):
    """Context switches of every thread of `pid` over `seconds`: each is a wake-up."""
    def count():
        import glob
        total = 0
        for status in glob.glob("/proc/%d/task/*/status" % pid):
            with open(status) as handle:
                for line in handle:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        return total
    before = count()
    time.sleep(seconds)
    return count() - before


if __name__ == "__main__":
    sys.exit(main())
