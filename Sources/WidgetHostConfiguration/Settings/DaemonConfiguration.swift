import Foundation
import WidgetHostCore

/// Everything widgethostd reads from its config file (`config/widgethost.toml` documents
/// every key), with DESIGN.md's defaults. The rule keys map onto `HostConfiguration`.
public struct DaemonConfiguration: Sendable, Hashable {
    /// Where `widgethostd` looks when `--config` is not given.
    public static let defaultPath = "/etc/widgethost/widgethost.toml"

    /// `state.path`: the SQLite state store's directory.
    public var statePath = "/var/lib/widgethost"
    /// `plugins.paths`: directories holding `NAME.appex` bundles, scanned in this order.
    public var pluginPaths = ["/usr/lib/widgethost/plugins", "/etc/widgethost/plugins.d"]
    /// `app_groups.path`: one container directory per app group id.
    public var appGroupsPath = "/var/lib/widgethost/AppGroups"
    /// `socket.path` and the `[control]` table: how the control socket is served.
    public var control = ControlSettings(socketPath: "/run/widgethost.sock")
    /// `limits.cgroup`: whether extensions get their own cgroup v2 with `memory.max`.
    public var cgroup = CgroupMode.auto
    /// `log.level`.
    public var logLevel = LogLevel.info
    /// `[dashboard]`: the HTTP dashboard and `/metrics`; off by default.
    public var dashboard = DashboardSettings()
    /// The host's rules: `[budget]`, `[policy]`, `[limits]`, `[backoff]`, `[extension]`.
    public var host = HostConfiguration()

    public init() {}

    /// `socket.path`.
    public var socketPath: String {
        get { control.socketPath }
        set { control.socketPath = newValue }
    }
}

/// `limits.cgroup`.
public enum CgroupMode: String, Sendable, Hashable, CaseIterable {
    /// A cgroup per extension with `memory.max` where the daemon has a delegated cgroup v2
    /// subtree; polling `/proc` otherwise.
    case auto
    /// Polling `/proc/PID/status` only.
    case off
}

/// `log.level`: swift-log's levels, by the names swift-log gives them (the daemon maps them
/// onto `Logger.Level`; this module does no logging).
public enum LogLevel: String, Sendable, Hashable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical
}

/// Command-line flags that win over the file. A relative path is resolved against the
/// current directory, as in the file.
public struct ConfigOverrides: Sendable, Hashable {
    public var socketPath: String?
    public var statePath: String?
    /// Replaces `plugins.paths` entirely.
    public var pluginPaths: [String]?
    public var appGroupsPath: String?

    public init(
        socketPath: String? = nil, statePath: String? = nil, pluginPaths: [String]? = nil,
        appGroupsPath: String? = nil
    ) {
        self.socketPath = socketPath
        self.statePath = statePath
        self.pluginPaths = pluginPaths
        self.appGroupsPath = appGroupsPath
    }
}

extension DaemonConfiguration {
    /// Reads and validates the file at `path`; messages name it as given.
    public static func load(
        contentsOf path: String, currentDirectory: String = FileManager.default.currentDirectoryPath,
        groupID: (String) -> UInt32? = SystemGroups.groupID(named:)
    ) throws(ConfigError) -> DaemonConfiguration {
        let text = try ConfigFile.read(path)
        return try parse(text: text, file: path, currentDirectory: currentDirectory, groupID: groupID)
    }

    /// Parses and validates config text. `file` is the name used in messages; relative
    /// paths are resolved against `currentDirectory`; `control.admin_groups` names are
    /// resolved with `groupID`.
    public static func parse(
        text: String, file: String, currentDirectory: String = FileManager.default.currentDirectoryPath,
        groupID: (String) -> UInt32? = SystemGroups.groupID(named:)
    ) throws(ConfigError) -> DaemonConfiguration {
        let document = try ConfigDocument(parsing: text, file: file)
        return try parse(document, currentDirectory: currentDirectory, groupID: groupID)
    }

    /// Validates an already parsed document.
    public static func parse(
        _ document: ConfigDocument, currentDirectory: String = FileManager.default.currentDirectoryPath,
        groupID: (String) -> UInt32? = SystemGroups.groupID(named:)
    ) throws(ConfigError) -> DaemonConfiguration {
        try withoutActuallyEscaping(groupID) { groupID throws(ConfigError) in
            let context = SettingsContext(
                values: ValueReader(file: document.file), prefix: "", currentDirectory: currentDirectory,
                groupID: groupID)
            var configuration = DaemonConfiguration()
            let written = try SettingsReader(sections: DaemonSettings.sections, context: context)
                .read(document.root, into: &configuration)
            try HostRules.checkConsistency(configuration.host, written: written, context: context)
            return configuration
        }
    }

    /// The flags applied over the file.
    public func applying(
        _ overrides: ConfigOverrides, currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> DaemonConfiguration {
        var result = self
        if let path = overrides.socketPath { result.socketPath = ConfigPath.resolve(path, in: currentDirectory) }
        if let path = overrides.statePath { result.statePath = ConfigPath.resolve(path, in: currentDirectory) }
        if let paths = overrides.pluginPaths {
            result.pluginPaths = paths.map { ConfigPath.resolve($0, in: currentDirectory) }
        }
        if let path = overrides.appGroupsPath {
            result.appGroupsPath = ConfigPath.resolve(path, in: currentDirectory)
        }
        return result
    }
}
