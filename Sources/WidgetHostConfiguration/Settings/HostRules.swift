import Foundation
import WidgetHostCore

/// The tables that make a `HostConfiguration` — `[budget]`, `[policy]`, `[limits]`,
/// `[backoff]`, `[extension]` — with their checks. widgethost.toml has them at its top level;
/// a scenario has them under `[host]`.
enum HostRules {
    static let sections: [SettingsSection<HostConfiguration>] = [
        SettingsSection(name: "budget", fields: [
            SettingsField("min") { host, value, key, context throws(ConfigError) in
                host.budget.min = try context.values.integer(value, key, atLeast: 1, default: 40)
            },
            SettingsField("max") { host, value, key, context throws(ConfigError) in
                host.budget.max = try context.values.integer(value, key, atLeast: 1, default: 70)
            },
            SettingsField("full_engagement_views") { host, value, key, context throws(ConfigError) in
                host.budget.fullEngagementViews = try context.values.integer(value, key, atLeast: 1, default: 12)
            },
            SettingsField("learning_period") { host, value, key, context throws(ConfigError) in
                host.budget.learningPeriod = try context.values.duration(value, key, zero: true, default: 72 * 3600)
            },
            SettingsField("enforce") { host, value, key, context throws(ConfigError) in
                host.budget.enforce = try context.values.boolean(value, key)
            },
            SettingsField("pinned") { host, value, key, context throws(ConfigError) in
                host.budget.pinned = try pinned(value, key, context.values)
            },
        ]),
        SettingsSection(name: "policy", fields: [
            SettingsField("min_reload_interval") { host, value, key, context throws(ConfigError) in
                host.policy.minReloadInterval = try context.values.duration(value, key, zero: true, default: 300)
            }
        ]),
        SettingsSection(name: "limits", fields: [
            SettingsField("warn_entries") { host, value, key, context throws(ConfigError) in
                host.limits.warnEntries = try context.values.integer(value, key, atLeast: 1, default: 100)
            },
            SettingsField("max_entries") { host, value, key, context throws(ConfigError) in
                host.limits.maxEntries = try context.values.integer(value, key, atLeast: 1, default: 400)
            },
            SettingsField("max_timeline_bytes") { host, value, key, context throws(ConfigError) in
                host.limits.maxTimelineBytes = try context.values.size(value, key, default: 4 * 1024 * 1024)
            },
            SettingsField("max_view_nodes") { host, value, key, context throws(ConfigError) in
                host.limits.maxViewNodes = try context.values.integer(value, key, atLeast: 1, default: 2000)
            },
            SettingsField("max_view_depth") { host, value, key, context throws(ConfigError) in
                host.limits.maxViewDepth = try context.values.integer(value, key, atLeast: 1, default: 64)
            },
            SettingsField("timeline_timeout") { host, value, key, context throws(ConfigError) in
                host.limits.timelineTimeout = try context.values.duration(value, key, zero: false, default: 5)
            },
            SettingsField("placeholder_timeout") { host, value, key, context throws(ConfigError) in
                host.limits.placeholderTimeout = try context.values.duration(value, key, zero: false, default: 1)
            },
            SettingsField("intent_timeout") { host, value, key, context throws(ConfigError) in
                host.limits.intentTimeout = try context.values.duration(value, key, zero: false, default: 5)
            },
            SettingsField("memory") { host, value, key, context throws(ConfigError) in
                host.limits.memory = try context.values.size(value, key, default: 30 * 1024 * 1024)
            },
            SettingsField("memory_sample_interval") { host, value, key, context throws(ConfigError) in
                host.limits.memorySampleInterval = try context.values.duration(value, key, zero: false, default: 0.05)
            },
            SettingsField("sandbox") { host, value, key, context throws(ConfigError) in
                let text = try context.values.string(value, key, example: "\"auto\"")
                guard let mode = SandboxMode(rawValue: text) else {
                    throw context.values.error(
                        .invalidValue, value,
                        "\(key) = \(value.tomlText) is not a sandbox mode; use \"auto\" (every rule the kernel supports), \"required\" (refuse to start an extension when a rule cannot be applied) or \"off\" (no sandbox, for debugging)")
                }
                host.limits.sandbox = mode
            },
            SettingsField("processes") { host, value, key, context throws(ConfigError) in
                host.limits.processes = try context.values.integer(value, key, atLeast: 1, default: 32)
            },
            SettingsField("open_files") { host, value, key, context throws(ConfigError) in
                host.limits.openFiles = try context.values.integer(value, key, atLeast: 16, default: 256)
            },
        ]),
        SettingsSection(name: "backoff", fields: [
            SettingsField("initial") { host, value, key, context throws(ConfigError) in
                host.backoff.initial = try context.values.duration(value, key, zero: false, default: 60)
            },
            SettingsField("maximum") { host, value, key, context throws(ConfigError) in
                host.backoff.maximum = try context.values.duration(value, key, zero: false, default: 3600)
            },
        ]),
        SettingsSection(name: "extension", fields: [
            SettingsField("idle_timeout") { host, value, key, context throws(ConfigError) in
                host.extensionLifecycle.idleTimeout = try context.values.duration(value, key, zero: true, default: 30)
            }
        ]),
        SettingsSection(name: "activities", fields: [
            SettingsField("enabled") { host, value, key, context throws(ConfigError) in
                host.activities.enabled = try context.values.boolean(value, key)
            },
            SettingsField("max_payload_bytes") { host, value, key, context throws(ConfigError) in
                host.activities.maxPayloadBytes = try context.values.size(value, key, default: 4096)
            },
            SettingsField("max_per_app") { host, value, key, context throws(ConfigError) in
                host.activities.maxPerApp = try context.values.integer(value, key, atLeast: 1, default: 3)
            },
            SettingsField("max_active") { host, value, key, context throws(ConfigError) in
                host.activities.maxActive = try context.values.duration(value, key, zero: false, default: 8 * 3600)
            },
            SettingsField("max_lock_screen") { host, value, key, context throws(ConfigError) in
                host.activities.maxLockScreen = try context.values.duration(value, key, zero: true, default: 4 * 3600)
            },
            SettingsField("push_budget") { host, value, key, context throws(ConfigError) in
                host.activities.pushBudget = try context.values.integer(value, key, atLeast: 1, default: 10)
            },
            SettingsField("push_budget_frequent") { host, value, key, context throws(ConfigError) in
                host.activities.frequentPushBudget = try context.values.integer(value, key, atLeast: 1, default: 60)
            },
            SettingsField("push_window") { host, value, key, context throws(ConfigError) in
                host.activities.pushWindow = try context.values.duration(value, key, zero: false, default: 3600)
            },
            SettingsField("push_to_start_budget") { host, value, key, context throws(ConfigError) in
                host.activities.pushToStartBudget = try context.values.integer(value, key, atLeast: 1, default: 5)
            },
            SettingsField("keep_dismissed") { host, value, key, context throws(ConfigError) in
                host.activities.keepDismissed = try context.values.duration(value, key, zero: true, default: 24 * 3600)
            },
        ]),
    ]

    /// `budget.pinned`: widget kind → B.
    private static func pinned(_ value: ConfigValue, _ key: String, _ values: ValueReader) throws(ConfigError) -> [String: Int] {
        let table = try values.table(value, key, hint: "write [\(key)] and below it lines such as BirthdayHomeWidget = 12")
        var result: [String: Int] = [:]
        for (kind, budget) in table.entries {
            let entryKey = key + "." + ConfigValue.key(kind)
            if budget.table != nil, let hint = dottedKeyHint(kind, budget, example: "12") {
                throw values.wrongType(budget, entryKey, expected: "an integer", hint: hint)
            }
            result[kind] = try values.integer(budget, entryKey, atLeast: 1, default: 40)
        }
        return result
    }

    /// `com.example.app = …` without quotes makes nested tables; say how to quote it.
    static func dottedKeyHint(_ first: String, _ value: ConfigValue, example: String) -> String? {
        var parts = [first]
        var current = value
        while let table = current.table, table.count == 1, let (key, inner) = table.entries.first {
            parts.append(key)
            current = inner
        }
        guard parts.count > 1 else { return nil }
        return "quote a name that contains dots: \(ConfigValue.quoted(parts.joined(separator: "."))) = \(example)"
    }

    // MARK: - Between keys

    /// Pairs of keys that must be ordered. The error is on the line of the key that was
    /// changed from its default (the smaller one's when both were).
    static func checkConsistency(
        _ host: HostConfiguration, written: [String: ConfigValue], context: SettingsContext
    ) throws(ConfigError) {
        let defaults = HostConfiguration()
        try ordered(
            "budget.min", Double(host.budget.min), Double(defaults.budget.min),
            "budget.max", Double(host.budget.max), Double(defaults.budget.max),
            written: written, context: context, format: { String(Int($0)) })
        try ordered(
            "limits.warn_entries", Double(host.limits.warnEntries), Double(defaults.limits.warnEntries),
            "limits.max_entries", Double(host.limits.maxEntries), Double(defaults.limits.maxEntries),
            written: written, context: context, format: { String(Int($0)) })
        try ordered(
            "backoff.initial", host.backoff.initial, defaults.backoff.initial,
            "backoff.maximum", host.backoff.maximum, defaults.backoff.maximum,
            written: written, context: context, format: { ConfigValue.quoted(DurationText.format($0)) })
        try ordered(
            "activities.push_budget", Double(host.activities.pushBudget), Double(defaults.activities.pushBudget),
            "activities.push_budget_frequent", Double(host.activities.frequentPushBudget),
            Double(defaults.activities.frequentPushBudget),
            written: written, context: context, format: { String(Int($0)) })
    }

    private static func ordered(
        _ lowKey: String, _ low: Double, _ lowDefault: Double,
        _ highKey: String, _ high: Double, _ highDefault: Double,
        written: [String: ConfigValue], context: SettingsContext, format: (Double) -> String
    ) throws(ConfigError) {
        guard low > high else { return }
        let lowText = written[lowKey]?.tomlText ?? format(low)
        let highText = written[highKey]?.tomlText ?? format(high)
        let lowName = context.prefix + lowKey
        let highName = context.prefix + highKey
        let fix = "set \(lowName) ≤ \(highName)"
        if let lowValue = written[lowKey], low != lowDefault || written[highKey] == nil || high == highDefault {
            throw context.values.error(.inconsistent, lowValue, "\(lowName) = \(lowText) is above \(highName) = \(highText); \(fix)")
        }
        throw ConfigError(
            kind: .inconsistent, file: context.values.file, line: written[highKey]?.line,
            message: "\(highName) = \(highText) is below \(lowName) = \(lowText); \(fix)")
    }
}

extension HostConfiguration {
    /// The host's rules from a table of rule tables (`budget`, `policy`, `limits`, `backoff`,
    /// `extension`), validated as in widgethost.toml: a scenario's `[host]` table. Lines in
    /// messages are the document's; `prefix` names the table in them (`"host."`).
    public static func parse(
        _ table: ConfigTable, file: String, prefix: String = "", over base: HostConfiguration = HostConfiguration()
    ) throws(ConfigError) -> HostConfiguration {
        let context = SettingsContext(
            values: ValueReader(file: file), prefix: prefix, currentDirectory: "/", groupID: { _ in nil })
        var host = base
        let written = try SettingsReader(sections: HostRules.sections, context: context).read(table, into: &host)
        try HostRules.checkConsistency(host, written: written, context: context)
        return host
    }
}
