import Foundation
import Logging
import WidgetHostCore

/// Maps a TOML document onto `DaemonConfiguration`, checking every key and value and
/// naming the line of anything wrong. Keys are read in the order the file defines them,
/// so the first error in the file is the one reported.
struct ConfigReader {
    enum Scope {
        /// The whole config file of widgethostd.
        case daemon
        /// Only the rule tables, under a prefix (a scenario's `[host]` table).
        case hostRules(prefix: String)
    }

    let file: String
    let currentDirectory: String
    let groupID: (String) -> UInt32?
    let scope: Scope

    // MARK: - The keys

    typealias Apply = @Sendable (ConfigReader, inout DaemonConfiguration, TOMLValue, String) throws(ConfigError) -> Void

    struct Field: Sendable {
        var name: String
        var daemonOnly = false
        var apply: Apply
    }

    struct Section: Sendable {
        var name: String
        var daemonOnly = false
        var fields: [Field]
    }

    /// Every table and key of the config file, in the order `config/widgethost.toml` lists them.
    static let sections: [Section] = [
        Section(name: "socket", daemonOnly: true, fields: [
            Field(name: "path") { reader, config, value, key throws(ConfigError) in
                let path = try reader.path(value, key, example: "/run/widgethost.sock")
                // sockaddr_un.sun_path holds 108 bytes, the last a NUL.
                if path.utf8.count > 107 {
                    throw reader.error(
                        .outOfRange, value,
                        "\(key) = \(value.tomlText) is \(path.utf8.count) bytes long as \(TOMLValue.quoted(path)), more than the 107 a Unix socket path may have; choose a shorter path")
                }
                config.socketPath = path
            }
        ]),
        Section(name: "state", daemonOnly: true, fields: [
            Field(name: "path") { reader, config, value, key throws(ConfigError) in
                config.statePath = try reader.path(value, key, example: "/var/lib/widgethost")
            }
        ]),
        Section(name: "plugins", daemonOnly: true, fields: [
            Field(name: "paths") { reader, config, value, key throws(ConfigError) in
                config.pluginPaths = try reader.paths(value, key, example: "/usr/lib/widgethost/plugins")
            }
        ]),
        Section(name: "app_groups", daemonOnly: true, fields: [
            Field(name: "path") { reader, config, value, key throws(ConfigError) in
                config.appGroupsPath = try reader.path(value, key, example: "/var/lib/widgethost/AppGroups")
            }
        ]),
        Section(name: "control", daemonOnly: true, fields: [
            Field(name: "admin_groups") { reader, config, value, key throws(ConfigError) in
                config.control.adminGroupIDs = try reader.groups(value, key)
            },
            Field(name: "app_uids") { reader, config, value, key throws(ConfigError) in
                config.control.appUIDs = try reader.appUIDs(value, key)
            },
            Field(name: "max_connections") { reader, config, value, key throws(ConfigError) in
                config.control.maxConnections = try reader.integer(value, key, atLeast: 1, default: 64)
            },
            Field(name: "max_line_bytes") { reader, config, value, key throws(ConfigError) in
                config.control.maxLineBytes = try reader.size(value, key, default: 1024 * 1024)
            },
            Field(name: "idle_timeout") { reader, config, value, key throws(ConfigError) in
                config.control.idleTimeout = try reader.duration(value, key, zero: false, default: 60)
            },
        ]),
        Section(name: "log", daemonOnly: true, fields: [
            Field(name: "level") { reader, config, value, key throws(ConfigError) in
                let levels = Logger.Level.allCases.map(\.rawValue)
                let text = try reader.string(value, key, example: "\"info\"")
                guard let level = Logger.Level(rawValue: text) else {
                    throw reader.error(
                        .invalidValue, value,
                        "\(key) = \(value.tomlText) is not a log level; use one of \(levels.map { TOMLValue.quoted($0) }.joined(separator: ", "))")
                }
                config.logLevel = level
            }
        ]),
        Section(name: "budget", fields: [
            Field(name: "min") { reader, config, value, key throws(ConfigError) in
                config.host.budget.min = try reader.integer(value, key, atLeast: 1, default: 40)
            },
            Field(name: "max") { reader, config, value, key throws(ConfigError) in
                config.host.budget.max = try reader.integer(value, key, atLeast: 1, default: 70)
            },
            Field(name: "full_engagement_views") { reader, config, value, key throws(ConfigError) in
                config.host.budget.fullEngagementViews = try reader.integer(value, key, atLeast: 1, default: 12)
            },
            Field(name: "learning_period") { reader, config, value, key throws(ConfigError) in
                config.host.budget.learningPeriod = try reader.duration(value, key, zero: true, default: 72 * 3600)
            },
            Field(name: "enforce") { reader, config, value, key throws(ConfigError) in
                config.host.budget.enforce = try reader.boolean(value, key)
            },
            Field(name: "pinned") { reader, config, value, key throws(ConfigError) in
                config.host.budget.pinned = try reader.pinned(value, key)
            },
        ]),
        Section(name: "policy", fields: [
            Field(name: "min_reload_interval") { reader, config, value, key throws(ConfigError) in
                config.host.policy.minReloadInterval = try reader.duration(value, key, zero: true, default: 300)
            }
        ]),
        Section(name: "limits", fields: [
            Field(name: "warn_entries") { reader, config, value, key throws(ConfigError) in
                config.host.limits.warnEntries = try reader.integer(value, key, atLeast: 1, default: 100)
            },
            Field(name: "max_entries") { reader, config, value, key throws(ConfigError) in
                config.host.limits.maxEntries = try reader.integer(value, key, atLeast: 1, default: 400)
            },
            Field(name: "max_timeline_bytes") { reader, config, value, key throws(ConfigError) in
                config.host.limits.maxTimelineBytes = try reader.size(value, key, default: 4 * 1024 * 1024)
            },
            Field(name: "timeline_timeout") { reader, config, value, key throws(ConfigError) in
                config.host.limits.timelineTimeout = try reader.duration(value, key, zero: false, default: 5)
            },
            Field(name: "placeholder_timeout") { reader, config, value, key throws(ConfigError) in
                config.host.limits.placeholderTimeout = try reader.duration(value, key, zero: false, default: 1)
            },
            Field(name: "memory") { reader, config, value, key throws(ConfigError) in
                config.host.limits.memory = try reader.size(value, key, default: 30 * 1024 * 1024)
            },
            Field(name: "memory_sample_interval") { reader, config, value, key throws(ConfigError) in
                config.host.limits.memorySampleInterval = try reader.duration(
                    value, key, zero: false, default: 0.05)
            },
            Field(name: "cgroup", daemonOnly: true) { reader, config, value, key throws(ConfigError) in
                let text = try reader.string(value, key, example: "\"auto\"")
                guard let mode = CgroupMode(rawValue: text) else {
                    throw reader.error(
                        .invalidValue, value,
                        "\(key) = \(value.tomlText) is not a cgroup mode; use \"auto\" (a cgroup with memory.max per extension where a delegated cgroup v2 subtree allows it) or \"off\" (polling only)")
                }
                config.cgroup = mode
            },
        ]),
        Section(name: "backoff", fields: [
            Field(name: "initial") { reader, config, value, key throws(ConfigError) in
                config.host.backoff.initial = try reader.duration(value, key, zero: false, default: 60)
            },
            Field(name: "maximum") { reader, config, value, key throws(ConfigError) in
                config.host.backoff.maximum = try reader.duration(value, key, zero: false, default: 3600)
            },
        ]),
        Section(name: "extension", fields: [
            Field(name: "idle_timeout") { reader, config, value, key throws(ConfigError) in
                config.host.extensionLifecycle.idleTimeout = try reader.duration(value, key, zero: true, default: 30)
            }
        ]),
    ]

    // MARK: - Reading

    private var prefix: String {
        switch scope {
        case .daemon: ""
        case .hostRules(let prefix): prefix
        }
    }

    private var daemon: Bool {
        if case .daemon = scope { return true }
        return false
    }

    private var visibleSections: [Section] {
        Self.sections.filter { daemon || !$0.daemonOnly }
    }

    private func visibleFields(of section: Section) -> [Field] {
        section.fields.filter { daemon || !$0.daemonOnly }
    }

    func read(_ root: TOMLTable, into configuration: inout DaemonConfiguration) throws(ConfigError) {
        var written: [String: TOMLValue] = [:]
        let sections = visibleSections
        for (name, value) in root.entries {
            let sectionKey = prefix + TOMLValue.key(name)
            guard let section = sections.first(where: { $0.name == name }) else {
                let known = sections.map(\.name)
                let list = "nown tables: \(known.joined(separator: ", "))"
                let rest = Self.suggestion(for: name, among: known).map { "did you mean [\(prefix)\($0)]? K\(list)" } ?? "k\(list)"
                throw error(.unknownKey, value, "unknown \(value.table == nil ? "key" : "table") \(sectionKey); \(rest)")
            }
            guard let table = value.table else {
                throw error(
                    .wrongType, value,
                    "\(sectionKey): expected a table, got \(value.typeDescription); write [\(sectionKey)] with its keys below it")
            }
            let fields = visibleFields(of: section)
            for (fieldName, fieldValue) in table.entries {
                let key = sectionKey + "." + TOMLValue.key(fieldName)
                guard let field = fields.first(where: { $0.name == fieldName }) else {
                    let known = fields.map(\.name)
                    let list = "nown keys in [\(sectionKey)]: \(known.joined(separator: ", "))"
                    let rest =
                        Self.suggestion(for: fieldName, among: known).map { "did you mean \(sectionKey).\($0)? K\(list)" }
                        ?? "k\(list)"
                    throw error(.unknownKey, fieldValue, "unknown key \(key); \(rest)")
                }
                written[section.name + "." + fieldName] = fieldValue
                try field.apply(self, &configuration, fieldValue, key)
            }
        }
        try checkConsistency(configuration.host, written: written)
    }

    /// Pairs of keys that must be ordered. The error is on the line of the key that was
    /// changed from its default (the smaller one's when both were).
    private func checkConsistency(_ host: HostConfiguration, written: [String: TOMLValue]) throws(ConfigError) {
        let defaults = HostConfiguration()
        try ordered(
            "budget.min", Double(host.budget.min), Double(defaults.budget.min),
            "budget.max", Double(host.budget.max), Double(defaults.budget.max),
            written: written, format: { String(Int($0)) })
        try ordered(
            "limits.warn_entries", Double(host.limits.warnEntries), Double(defaults.limits.warnEntries),
            "limits.max_entries", Double(host.limits.maxEntries), Double(defaults.limits.maxEntries),
            written: written, format: { String(Int($0)) })
        try ordered(
            "backoff.initial", host.backoff.initial, defaults.backoff.initial,
            "backoff.maximum", host.backoff.maximum, defaults.backoff.maximum,
            written: written, format: { TOMLValue.quoted(DurationText.format($0)) })
    }

    private func ordered(
        _ lowKey: String, _ low: Double, _ lowDefault: Double,
        _ highKey: String, _ high: Double, _ highDefault: Double,
        written: [String: TOMLValue], format: (Double) -> String
    ) throws(ConfigError) {
        guard low > high else { return }
        let lowText = written[lowKey]?.tomlText ?? format(low)
        let highText = written[highKey]?.tomlText ?? format(high)
        let lowName = prefix + lowKey
        let highName = prefix + highKey
        let fix = "set \(lowName) ≤ \(highName)"
        if let lowValue = written[lowKey], low != lowDefault || written[highKey] == nil || high == highDefault {
            throw error(.inconsistent, lowValue, "\(lowName) = \(lowText) is above \(highName) = \(highText); \(fix)")
        }
        let line = written[highKey]?.line
        throw ConfigError(
            kind: .inconsistent, file: file, line: line,
            message: "\(highName) = \(highText) is below \(lowName) = \(lowText); \(fix)")
    }

    // MARK: - Values

    func error(_ kind: ConfigError.Kind, _ value: TOMLValue, _ message: String) -> ConfigError {
        ConfigError(kind: kind, file: file, line: value.line, message: message)
    }

    private func wrongType(_ value: TOMLValue, _ key: String, expected: String, hint: String? = nil) -> ConfigError {
        var message = "\(key): expected \(expected), got \(value.typeDescription)"
        if let hint { message += "; \(hint)" }
        return error(.wrongType, value, message)
    }

    func integer(_ value: TOMLValue, _ key: String, atLeast minimum: Int, default: Int) throws(ConfigError) -> Int {
        guard let number = value.integer else {
            var hint: String?
            if let text = value.string, Int(text) != nil { hint = "write \(key) = \(text) without quotes" }
            if let float = value.float, float == float.rounded(), abs(float) < 1e15 {
                hint = "write \(key) = \(Int(float)) without a decimal point"
            }
            throw wrongType(value, key, expected: "an integer", hint: hint)
        }
        guard number >= minimum else {
            throw error(
                .outOfRange, value,
                "\(key) = \(number) is below \(minimum); set it to at least \(minimum) (the default is \(`default`))")
        }
        return number
    }

    func boolean(_ value: TOMLValue, _ key: String) throws(ConfigError) -> Bool {
        guard let flag = value.boolean else {
            let hint = value.string.map { ["true", "false"].contains($0) ? "write \(key) = \($0) without quotes" : nil }
            throw wrongType(value, key, expected: "true or false", hint: hint ?? nil)
        }
        return flag
    }

    func string(_ value: TOMLValue, _ key: String, example: String) throws(ConfigError) -> String {
        guard let text = value.string else {
            throw wrongType(value, key, expected: "a string", hint: "write it in quotes, as in \(key) = \(example)")
        }
        return text
    }

    /// A duration: a string such as `"30s"`, or a number of seconds.
    func duration(_ value: TOMLValue, _ key: String, zero: Bool, default: TimeInterval) throws(ConfigError)
        -> TimeInterval
    {
        let seconds: TimeInterval
        switch value.content {
        case .integer(let number): seconds = Double(number)
        case .float(let number) where number.isFinite: seconds = number
        case .string(let text):
            guard let parsed = DurationText.parse(text) else {
                throw error(
                    .invalidValue, value,
                    "\(key) = \(value.tomlText) is not a duration; write a number and a unit (ms, s, m, h, d), as in \"30s\" or \"5m\"")
            }
            seconds = parsed
        default:
            throw wrongType(value, key, expected: "a duration such as \"30s\" or \"5m\"")
        }
        let defaultText = TOMLValue.quoted(DurationText.format(`default`))
        if seconds < 0 {
            throw error(
                .outOfRange, value,
                "\(key) = \(value.tomlText) is negative; use \(zero ? "0s" : "a duration above zero") or more (the default is \(defaultText))")
        }
        if seconds == 0, !zero {
            throw error(
                .outOfRange, value, "\(key) = \(value.tomlText) must be above zero; the default is \(defaultText)")
        }
        return seconds
    }

    /// A size: a number of bytes, or a string such as `"4MiB"`. Always above zero.
    func size(_ value: TOMLValue, _ key: String, default: Int) throws(ConfigError) -> Int {
        let bytes: Int
        switch value.content {
        case .integer(let number): bytes = number
        case .string(let text):
            guard let parsed = SizeText.parse(text) else {
                var hint = ""
                if let unit = ["KB": "KiB", "MB": "MiB", "GB": "GiB", "kB": "KiB", "K": "KiB", "M": "MiB", "G": "GiB"]
                    .first(where: { text.hasSuffix($0.key) })
                {
                    hint = " (sizes are 1024-based: \(unit.key) → \(unit.value))"
                }
                throw error(
                    .invalidValue, value,
                    "\(key) = \(value.tomlText) is not a size\(hint); write a number of bytes, or a number and KiB, MiB or GiB, as in \"30MiB\"")
            }
            bytes = parsed
        default:
            throw wrongType(value, key, expected: "a size such as \"4MiB\" or a number of bytes")
        }
        guard bytes > 0 else {
            throw error(
                .outOfRange, value,
                "\(key) = \(value.tomlText) must be above zero; the default is \(TOMLValue.quoted(SizeText.format(`default`)))")
        }
        return bytes
    }

    func path(_ value: TOMLValue, _ key: String, example: String) throws(ConfigError) -> String {
        let text = try string(value, key, example: TOMLValue.quoted(example))
        guard !text.isEmpty else {
            throw error(.invalidValue, value, "\(key) is empty; give a path such as \(TOMLValue.quoted(example))")
        }
        return ConfigPath.resolve(text, in: currentDirectory)
    }

    func paths(_ value: TOMLValue, _ key: String, example: String) throws(ConfigError) -> [String] {
        guard let elements = value.array else {
            let hint = value.string.map { "write \(key) = [\(TOMLValue.quoted($0))]" }
            throw wrongType(value, key, expected: "an array of paths", hint: hint)
        }
        var result: [String] = []
        for element in elements {
            guard let text = element.string else {
                throw wrongType(element, key, expected: "an array of paths (strings)", hint: "quote each path")
            }
            guard !text.isEmpty else {
                throw error(.invalidValue, element, "\(key) holds an empty path; remove it or give a directory")
            }
            result.append(ConfigPath.resolve(text, in: currentDirectory))
        }
        return result
    }

    func groups(_ value: TOMLValue, _ key: String) throws(ConfigError) -> [UInt32] {
        guard let elements = value.array else {
            let hint = value.string.map { "write \(key) = [\(TOMLValue.quoted($0))]" }
            throw wrongType(value, key, expected: "an array of group names or gids", hint: hint)
        }
        var result: [UInt32] = []
        for element in elements {
            switch element.content {
            case .integer(let gid):
                guard let id = UInt32(exactly: gid), id != UInt32.max else {
                    throw error(.outOfRange, element, "\(key): \(gid) is not a valid gid")
                }
                result.append(id)
            case .string(let name):
                if let id = UInt32(name), id != UInt32.max {
                    result.append(id)
                } else if let id = groupID(name) {
                    result.append(id)
                } else {
                    throw error(
                        .invalidValue, element,
                        "\(key): there is no group named \(TOMLValue.quoted(name)) on this system; create it (systemd-sysusers, groupadd) or list an existing group name or gid")
                }
            default:
                throw wrongType(element, key, expected: "a group name or a gid")
            }
        }
        return result
    }

    func appUIDs(_ value: TOMLValue, _ key: String) throws(ConfigError) -> [String: [UInt32]] {
        guard let table = value.table else {
            throw wrongType(
                value, key, expected: "a table of app ids",
                hint: "write [\(key)] and below it lines such as \"com.example.app\" = [1000]")
        }
        var result: [String: [UInt32]] = [:]
        for (app, uids) in table.entries {
            let entryKey = key + "." + TOMLValue.key(app)
            guard let elements = uids.array else {
                throw wrongType(
                    uids, entryKey, expected: "an array of uids",
                    hint: dottedHint(app, uids, example: "[1000]") ?? "write \(TOMLValue.quoted(app)) = [1000]")
            }
            guard !elements.isEmpty else {
                throw error(
                    .invalidValue, uids,
                    "\(entryKey) is empty, so no one could claim \(app); list the uids allowed to claim it, or remove the line to let anyone")
            }
            var list: [UInt32] = []
            for element in elements {
                guard let number = element.integer else {
                    throw wrongType(element, entryKey, expected: "a uid (an integer)")
                }
                guard let uid = UInt32(exactly: number), uid != UInt32.max else {
                    throw error(.outOfRange, element, "\(entryKey): \(number) is not a valid uid")
                }
                list.append(uid)
            }
            result[app] = list
        }
        return result
    }

    func pinned(_ value: TOMLValue, _ key: String) throws(ConfigError) -> [String: Int] {
        guard let table = value.table else {
            throw wrongType(
                value, key, expected: "a table of widget kinds",
                hint: "write [\(key)] and below it lines such as BirthdayHomeWidget = 12")
        }
        var result: [String: Int] = [:]
        for (kind, budget) in table.entries {
            let entryKey = key + "." + TOMLValue.key(kind)
            if budget.table != nil, let hint = dottedHint(kind, budget, example: "12") {
                throw wrongType(budget, entryKey, expected: "an integer", hint: hint)
            }
            result[kind] = try integer(budget, entryKey, atLeast: 1, default: 40)
        }
        return result
    }

    /// `com.example.app = […]` without quotes makes nested tables; say how to quote it.
    private func dottedHint(_ first: String, _ value: TOMLValue, example: String) -> String? {
        var parts = [first]
        var current = value
        while let table = current.table, table.count == 1, let (key, inner) = table.entries.first {
            parts.append(key)
            current = inner
        }
        guard parts.count > 1 else { return nil }
        return "quote a name that contains dots: \(TOMLValue.quoted(parts.joined(separator: "."))) = \(example)"
    }

    // MARK: - Suggestions

    /// The known name closest to a misspelt one, when it is close enough to be a typo.
    static func suggestion(for name: String, among known: [String]) -> String? {
        let normalized = name.lowercased().replacingOccurrences(of: "-", with: "_")
        if let exact = known.first(where: { $0 == normalized }) { return exact }
        let scored = known.map { ($0, distance(normalized, $0)) }.filter { $0.1 <= max(1, $0.0.count / 3) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = Swift.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = Swift.min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
