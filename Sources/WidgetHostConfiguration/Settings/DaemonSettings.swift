import Foundation

/// Every table and key of widgethost.toml, in the order `config/widgethost.toml` lists them:
/// the daemon's own tables, then the host's rule tables (`HostRules`) with the one daemon key
/// among them, `limits.cgroup`.
enum DaemonSettings {
    static let sections: [SettingsSection<DaemonConfiguration>] = daemonSections + HostRules.sections.map { section in
        var fields = section.fields.map { $0.lifted(\DaemonConfiguration.host) }
        if section.name == "limits" { fields.append(cgroup) }
        return SettingsSection(name: section.name, fields: fields)
    }

    private static let daemonSections: [SettingsSection<DaemonConfiguration>] = [
        SettingsSection(name: "socket", fields: [
            SettingsField("path") { config, value, key, context throws(ConfigError) in
                let path = try DaemonSettings.path(value, key, context, example: "/run/widgethost.sock")
                // sockaddr_un.sun_path holds 108 bytes, the last a NUL.
                if path.utf8.count > 107 {
                    throw context.values.error(
                        .outOfRange, value,
                        "\(key) = \(value.tomlText) is \(path.utf8.count) bytes long as \(ConfigValue.quoted(path)), more than the 107 a Unix socket path may have; choose a shorter path")
                }
                config.socketPath = path
            }
        ]),
        SettingsSection(name: "state", fields: [
            SettingsField("path") { config, value, key, context throws(ConfigError) in
                config.statePath = try DaemonSettings.path(value, key, context, example: "/var/lib/widgethost")
            }
        ]),
        SettingsSection(name: "plugins", fields: [
            SettingsField("paths") { config, value, key, context throws(ConfigError) in
                config.pluginPaths = try DaemonSettings.paths(value, key, context)
            }
        ]),
        SettingsSection(name: "app_groups", fields: [
            SettingsField("path") { config, value, key, context throws(ConfigError) in
                config.appGroupsPath = try DaemonSettings.path(value, key, context, example: "/var/lib/widgethost/AppGroups")
            }
        ]),
        SettingsSection(name: "control", fields: [
            SettingsField("admin_groups") { config, value, key, context throws(ConfigError) in
                config.control.adminGroupIDs = try DaemonSettings.groups(value, key, context)
            },
            SettingsField("app_uids") { config, value, key, context throws(ConfigError) in
                config.control.appUIDs = try DaemonSettings.appUIDs(value, key, context.values)
            },
            SettingsField("max_connections") { config, value, key, context throws(ConfigError) in
                config.control.maxConnections = try context.values.integer(value, key, atLeast: 1, default: 64)
            },
            SettingsField("max_line_bytes") { config, value, key, context throws(ConfigError) in
                config.control.maxLineBytes = try context.values.size(value, key, default: 1024 * 1024)
            },
            SettingsField("max_batch") { config, value, key, context throws(ConfigError) in
                config.control.maxBatch = try context.values.integer(value, key, atLeast: 1, default: 100)
            },
            SettingsField("idle_timeout") { config, value, key, context throws(ConfigError) in
                config.control.idleTimeout = try context.values.duration(value, key, zero: false, default: 60)
            },
        ]),
        SettingsSection(name: "log", fields: [
            SettingsField("level") { config, value, key, context throws(ConfigError) in
                let text = try context.values.string(value, key, example: "\"info\"")
                guard let level = LogLevel(rawValue: text) else {
                    throw context.values.error(
                        .invalidValue, value,
                        "\(key) = \(value.tomlText) is not a log level; use one of \(LogLevel.allCases.map { ConfigValue.quoted($0.rawValue) }.joined(separator: ", "))")
                }
                config.logLevel = level
            }
        ]),
        SettingsSection(name: "dashboard", fields: [
            SettingsField("listen") { config, value, key, context throws(ConfigError) in
                config.dashboard.listen = try DaemonSettings.listen(value, key, context.values)
            }
        ]),
    ]

    private static let cgroup = SettingsField<DaemonConfiguration>("cgroup") { config, value, key, context throws(ConfigError) in
        let text = try context.values.string(value, key, example: "\"auto\"")
        guard let mode = CgroupMode(rawValue: text) else {
            throw context.values.error(
                .invalidValue, value,
                "\(key) = \(value.tomlText) is not a cgroup mode; use \"auto\" (a cgroup with memory.max per extension where a delegated cgroup v2 subtree allows it) or \"off\" (polling only)")
        }
        config.cgroup = mode
    }

    // MARK: - Values only widgethost.toml has

    /// `dashboard.listen`: `"HOST:PORT"` on loopback, or `""` for none.
    static func listen(_ value: ConfigValue, _ key: String, _ values: ValueReader) throws(ConfigError)
        -> DashboardSettings.ListenAddress?
    {
        let text = try values.string(value, key, example: "\"127.0.0.1:8765\"")
        if text.isEmpty { return nil }
        switch DashboardSettings.ListenAddress.parse(text) {
        case .success(let address):
            return address
        case .failure(.form):
            throw values.error(
                .invalidValue, value,
                "\(key) = \(value.tomlText) is not HOST:PORT; write it like \"127.0.0.1:8765\" (or \"\" for no dashboard)")
        case .failure(.port(let port)):
            throw values.error(.outOfRange, value, "\(key) = \(value.tomlText): \(ConfigValue.quoted(port)) is not a port from 0 to 65535")
        case .failure(.notLoopback(let host)):
            throw values.error(
                .invalidValue, value,
                "\(key) = \(value.tomlText): \(host) is not a loopback address; the dashboard listens on this machine only, so use 127.0.0.1, ::1 or localhost")
        }
    }

    static func path(_ value: ConfigValue, _ key: String, _ context: SettingsContext, example: String) throws(ConfigError)
        -> String
    {
        let text = try context.values.string(value, key, example: ConfigValue.quoted(example))
        guard !text.isEmpty else {
            throw context.values.error(.invalidValue, value, "\(key) is empty; give a path such as \(ConfigValue.quoted(example))")
        }
        return ConfigPath.resolve(text, in: context.currentDirectory)
    }

    static func paths(_ value: ConfigValue, _ key: String, _ context: SettingsContext) throws(ConfigError) -> [String] {
        let values = context.values
        guard let elements = value.array else {
            let hint = value.string.map { "write \(key) = [\(ConfigValue.quoted($0))]" }
            throw values.wrongType(value, key, expected: "an array of paths", hint: hint)
        }
        var result: [String] = []
        for element in elements {
            guard let text = element.string else {
                throw values.wrongType(element, key, expected: "an array of paths (strings)", hint: "quote each path")
            }
            guard !text.isEmpty else {
                throw values.error(.invalidValue, element, "\(key) holds an empty path; remove it or give a directory")
            }
            result.append(ConfigPath.resolve(text, in: context.currentDirectory))
        }
        return result
    }

    static func groups(_ value: ConfigValue, _ key: String, _ context: SettingsContext) throws(ConfigError) -> [UInt32] {
        let values = context.values
        guard let elements = value.array else {
            let hint = value.string.map { "write \(key) = [\(ConfigValue.quoted($0))]" }
            throw values.wrongType(value, key, expected: "an array of group names or gids", hint: hint)
        }
        var result: [UInt32] = []
        for element in elements {
            switch element.content {
            case .integer(let gid):
                guard let id = UInt32(exactly: gid), id != UInt32.max else {
                    throw values.error(.outOfRange, element, "\(key): \(gid) is not a valid gid")
                }
                result.append(id)
            case .string(let name):
                if let id = UInt32(name), id != UInt32.max {
                    result.append(id)
                } else if let id = context.groupID(name) {
                    result.append(id)
                } else {
                    throw values.error(
                        .invalidValue, element,
                        "\(key): there is no group named \(ConfigValue.quoted(name)) on this system; create it (systemd-sysusers, groupadd) or list an existing group name or gid")
                }
            default:
                throw values.wrongType(element, key, expected: "a group name or a gid")
            }
        }
        return result
    }

    static func appUIDs(_ value: ConfigValue, _ key: String, _ values: ValueReader) throws(ConfigError) -> [String: [UInt32]] {
        let table = try values.table(
            value, key, hint: "write [\(key)] and below it lines such as \"com.example.app\" = [1000]")
        var result: [String: [UInt32]] = [:]
        for (app, uids) in table.entries {
            let entryKey = key + "." + ConfigValue.key(app)
            guard let elements = uids.array else {
                throw values.wrongType(
                    uids, entryKey, expected: "an array of uids",
                    hint: HostRules.dottedKeyHint(app, uids, example: "[1000]") ?? "write \(ConfigValue.quoted(app)) = [1000]")
            }
            guard !elements.isEmpty else {
                throw values.error(
                    .invalidValue, uids,
                    "\(entryKey) is empty, so no one could claim \(app); list the uids allowed to claim it, or remove the line to let anyone")
            }
            var list: [UInt32] = []
            for element in elements {
                guard let number = element.integer else {
                    throw values.wrongType(element, entryKey, expected: "a uid (an integer)")
                }
                guard let uid = UInt32(exactly: number), uid != UInt32.max else {
                    throw values.error(.outOfRange, element, "\(entryKey): \(number) is not a valid uid")
                }
                list.append(uid)
            }
            result[app] = list
        }
        return result
    }
}
