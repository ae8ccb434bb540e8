import Foundation
import WidgetHostConfiguration
import WidgetHostCore
import WidgetHostProtocol

extension Scenario {
    /// Reads and validates a scenario file; every error names the file, the line and the key.
    public static func load(contentsOf path: String) throws(ConfigError) -> Scenario {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(
                kind: FileManager.default.fileExists(atPath: path) ? .unreadable : .fileNotFound, file: path,
                message: "cannot read the scenario (\(error.localizedDescription)); check the path")
        }
        let directory = (path as NSString).deletingLastPathComponent
        return try parse(text: text, file: path, directory: directory.isEmpty ? "." : directory)
    }

    /// Parses scenario text. Relative paths (`extension`, `app_groups`) are resolved against `directory`.
    public static func parse(text: String, file: String, directory: String) throws(ConfigError) -> Scenario {
        let document = try ConfigDocument(parsing: text, file: file)
        return try ScenarioReader(file: file, directory: directory).read(document.root)
    }
}

/// Maps the TOML document onto `Scenario`, key by key, in file order.
struct ScenarioReader {
    let file: String
    let directory: String
    var values: ValueReader { ValueReader(file: file) }

    func read(_ root: ConfigTable) throws(ConfigError) -> Scenario {
        try values.onlyKeys(root, ["simulation", "host", "widget", "app", "activity", "widget_push", "device"], in: "the scenario")
        guard let simulationValue = root["simulation"] else {
            throw ConfigError(
                kind: .invalidValue, file: file, line: 1,
                message: "the scenario has no [simulation] table; start it with [simulation] and start = \"2026-02-15T00:00:00Z\"")
        }
        let simulation = try values.table(simulationValue, "simulation")
        try values.onlyKeys(
            simulation, ["start", "duration", "timezone", "seed", "app_groups"], in: "[simulation]")
        guard let startValue = simulation["start"] else {
            throw ConfigError(
                kind: .invalidValue, file: file, line: simulationValue.line,
                message: "[simulation] has no start; add start = \"2026-02-15T00:00:00Z\"")
        }
        let start = try values.instant(startValue, "simulation.start", example: "2026-02-15T00:00:00Z")
        var duration: TimeInterval = 86_400
        if let value = simulation["duration"] {
            duration = try values.duration(value, "simulation.duration", zero: false, default: 86_400)
        }
        var timeZone = TimeZone(identifier: "UTC")!
        var timeZoneName = "UTC"
        if let value = simulation["timezone"] {
            let name = try values.string(value, "simulation.timezone", example: "\"Europe/Berlin\"")
            guard let zone = TimeZone(identifier: name) else {
                throw values.error(
                    .invalidValue, value,
                    "simulation.timezone = \(value.tomlText) is not a time zone; use an IANA name such as \"UTC\" or \"Europe/Berlin\"")
            }
            timeZone = zone
            timeZoneName = name
        }
        var seed: UInt64 = 0
        if let value = simulation["seed"] {
            seed = UInt64(try values.integer(value, "simulation.seed", atLeast: 0, default: 0))
        }
        var appGroupsPath: String?
        if let value = simulation["app_groups"] {
            appGroupsPath = resolve(try values.string(value, "simulation.app_groups", example: "\"app-groups\""))
        }

        var host = HostConfiguration()
        if let value = root["host"] {
            host = try HostConfiguration.parse(try values.table(value, "host"), file: file, prefix: "host.")
        }

        let apps = try values.arrayOfTables(root["app"], "app").enumerated().map { index, value throws(ConfigError) in
            try readApp(value, key: "app[\(index + 1)]")
        }
        var widgets: [ScenarioWidget] = []
        for (index, value) in try values.arrayOfTables(root["widget"], "widget").enumerated() {
            widgets.append(try readWidget(value, key: "widget[\(index + 1)]"))
        }
        var activities: [ScenarioActivity] = []
        for (index, value) in try values.arrayOfTables(root["activity"], "activity").enumerated() {
            activities.append(try readActivity(value, key: "activity[\(index + 1)]", start: start, timeZone: timeZone))
        }
        var widgetPushes: [ScenarioWidgetPush] = []
        for (index, value) in try values.arrayOfTables(root["widget_push"], "widget_push").enumerated() {
            widgetPushes.append(try readWidgetPush(value, key: "widget_push[\(index + 1)]", start: start, timeZone: timeZone))
        }
        guard !widgets.isEmpty || !activities.isEmpty else {
            throw ConfigError(
                kind: .invalidValue, file: file, line: 1,
                message: "the scenario has no [[widget]] and no [[activity]]; add a widget with kind and a provider or an extension")
        }
        var scenario = Scenario(
            file: file, start: start, duration: duration, timeZone: timeZone, timeZoneName: timeZoneName, seed: seed, appGroupsPath: appGroupsPath,
            host: host, widgets: widgets, apps: apps)
        scenario.activities = activities
        scenario.widgetPushes = widgetPushes
        for (index, value) in try values.arrayOfTables(root["device"], "device").enumerated() {
            scenario.deviceChanges.append(try readDeviceChange(value, key: "device[\(index + 1)]", duration: duration))
        }
        return scenario
    }

    private func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
    }

    private func readWidget(_ value: ConfigValue, key: String) throws(ConfigError) -> ScenarioWidget {
        let table = try values.table(value, key)
        try values.onlyKeys(
            table, ["kind", "family", "extension", "provider", "app", "views_per_day", "budget", "count", "taps", "configure"],
            in: "[[widget]] (\(key))")
        guard let kindValue = table["kind"] else {
            throw values.error(.invalidValue, value, "\(key) has no kind; add kind = \"BirthdayHomeWidget\"")
        }
        let kind = try values.string(kindValue, "\(key).kind", example: "\"BirthdayHomeWidget\"")
        var family = WidgetFamily.systemSmall
        if let familyValue = table["family"] {
            let name = try values.string(familyValue, "\(key).family", example: "\"systemSmall\"")
            guard let parsed = WidgetFamily(rawValue: name) else {
                throw values.error(
                    .invalidValue, familyValue,
                    "\(key).family = \(familyValue.tomlText) is not a widget family; use one of "
                        + WidgetFamily.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            family = parsed
        }
        let source: ScenarioWidget.Source
        switch (table["extension"], table["provider"]) {
        case (let ext?, nil):
            source = .bundle(path: resolve(try values.string(ext, "\(key).extension", example: "\"Examples/BirthdayReminders.appex\"")))
        case (nil, let provider?):
            source = .provider(try readProvider(provider, key: "\(key).provider"))
        case (_?, let provider?):
            throw values.error(
                .inconsistent, provider, "\(key) has both extension and provider; keep one (a real extension, or a synthetic provider)")
        case (nil, nil):
            throw values.error(
                .invalidValue, value,
                "\(key) has neither extension nor provider; add extension = \"path/Name.appex\" or provider = { policy = \"after\", every = \"15m\" }")
        }
        var app: String?
        if let appValue = table["app"] { app = try values.string(appValue, "\(key).app", example: "\"com.example\"") }
        let views = try table["views_per_day"].map { v throws(ConfigError) in try values.integer(v, "\(key).views_per_day", atLeast: 0, default: 0) } ?? 0
        let budget = try table["budget"].map { v throws(ConfigError) in try values.integer(v, "\(key).budget", atLeast: 1) }
        let count = try table["count"].map { v throws(ConfigError) in try values.integer(v, "\(key).count", atLeast: 1, default: 1) } ?? 1
        var widget = ScenarioWidget(
            kind: kind, family: family, source: source, app: app, viewsPerDay: views, budget: budget, count: count,
            line: value.line)
        widget.interactions = try readInteractions(table, key: key)
        return widget
    }

    private func readProvider(_ value: ConfigValue, key: String) throws(ConfigError) -> SyntheticProvider {
        let table = try values.table(value, key)
        try values.onlyKeys(table, ["policy", "every", "entries", "work", "footprint"], in: key)
        var provider = SyntheticProvider()
        if let policy = table["policy"] {
            let name = try values.string(policy, "\(key).policy", example: "\"after\"")
            guard let parsed = SyntheticProvider.Policy(rawValue: name) else {
                throw values.error(
                    .invalidValue, policy,
                    "\(key).policy = \(policy.tomlText) is not a reload policy; use \"atEnd\", \"after\" or \"never\"")
            }
            provider.policy = parsed
        }
        if let every = table["every"] { provider.every = try values.duration(every, "\(key).every", zero: false, default: 15 * 60) }
        if let entries = table["entries"] { provider.entries = try values.integer(entries, "\(key).entries", atLeast: 1, default: 1) }
        if let work = table["work"] { provider.work = try values.duration(work, "\(key).work", zero: true, default: 0) }
        if let footprint = table["footprint"] { provider.footprint = try values.size(footprint, "\(key).footprint", default: 8 * 1024 * 1024) }
        return provider
    }

    private func readApp(_ value: ConfigValue, key: String) throws(ConfigError) -> ScenarioApp {
        let table = try values.table(value, key)
        try values.onlyKeys(table, ["id", "reloads", "foreground"], in: "[[app]] (\(key))")
        guard let idValue = table["id"] else {
            throw values.error(.invalidValue, value, "\(key) has no id; add id = \"com.birthdayreminders\"")
        }
        let id = try values.string(idValue, "\(key).id", example: "\"com.birthdayreminders\"")
        var reloads: [ReloadSchedule] = []
        for (index, item) in try values.inlineTables(table["reloads"], "\(key).reloads").enumerated() {
            reloads.append(try readReloads(item, key: "\(key).reloads[\(index + 1)]"))
        }
        var windows: [ForegroundWindow] = []
        for (index, item) in try values.inlineTables(table["foreground"], "\(key).foreground").enumerated() {
            let itemKey = "\(key).foreground[\(index + 1)]"
            let window = try values.table(item, itemKey)
            try values.onlyKeys(window, ["from", "for"], in: itemKey)
            guard let from = window["from"], let length = window["for"] else {
                throw values.error(.invalidValue, item, "\(itemKey) needs from and for, as in { from = \"08:00\", for = \"1h\" }")
            }
            windows.append(
                ForegroundWindow(
                    from: try values.timeOfDay(from, "\(itemKey).from"),
                    length: try values.duration(length, "\(itemKey).for", zero: false)))
        }
        return ScenarioApp(id: id, reloads: reloads, foreground: windows)
    }

    private func readReloads(_ value: ConfigValue, key: String) throws(ConfigError) -> ReloadSchedule {
        let table = try values.table(value, key)
        try values.onlyKeys(table, ["kind", "every", "at", "per_day", "from", "until", "when"], in: key)
        let kind = try table["kind"].map { v throws(ConfigError) in try values.string(v, "\(key).kind", example: "\"BirthdayHomeWidget\"") }
        var when = ReloadSchedule.When.always
        if let whenValue = table["when"] {
            let name = try values.string(whenValue, "\(key).when", example: "\"foreground\"")
            guard let parsed = ReloadSchedule.When(rawValue: name) else {
                throw values.error(
                    .invalidValue, whenValue, "\(key).when = \(whenValue.tomlText) must be \"always\", \"foreground\" or \"background\"")
            }
            when = parsed
        }
        let times = try readTimes(table, value, key: key, what: "reload")
        return ReloadSchedule(kind: kind, times: times, when: when, line: value.line)
    }
}
