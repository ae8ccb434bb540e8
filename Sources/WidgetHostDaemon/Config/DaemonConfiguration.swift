import Foundation
import Logging
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
    public var logLevel = Logger.Level.info
    /// The host's rules: `[budget]`, `[policy]`, `[limits]`, `[backoff]`, `[extension]`.
    public var host = HostConfiguration()

    public init() {}

    /// `socket.path`.
    public var socketPath: String {
        get { control.socketPath }
        set { control.socketPath = newValue }
    }

    /// What the daemon runtime takes.
    public var daemonOptions: DaemonOptions {
        var options = DaemonOptions(
            host: host, control: control, pluginPaths: pluginPaths, appGroupsPath: appGroupsPath,
            statePath: statePath)
        options.cgroup = cgroup
        return options
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
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text, file: file)
        } catch {
            throw ConfigError(error)
        }
        return try parse(document, currentDirectory: currentDirectory, groupID: groupID)
    }

    /// Validates an already parsed document.
    public static func parse(
        _ document: TOMLDocument, currentDirectory: String = FileManager.default.currentDirectoryPath,
        groupID: (String) -> UInt32? = SystemGroups.groupID(named:)
    ) throws(ConfigError) -> DaemonConfiguration {
        try withoutActuallyEscaping(groupID) { groupID throws(ConfigError) in
            let reader = ConfigReader(
                file: document.file, currentDirectory: currentDirectory, groupID: groupID, scope: .daemon)
            var configuration = DaemonConfiguration()
            try reader.read(document.root, into: &configuration)
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

extension HostConfiguration {
    /// The host's rules from a table of rule sections (`budget`, `policy`, `limits`,
    /// `backoff`, `extension`), validated as in the config file: a scenario's `[host]` table.
    /// Lines in messages are the document's; `prefix` names the table (`"host."`).
    public static func parse(
        _ table: TOMLTable, file: String, prefix: String = "", over base: HostConfiguration = HostConfiguration()
    ) throws(ConfigError) -> HostConfiguration {
        let reader = ConfigReader(
            file: file, currentDirectory: "/", groupID: { _ in nil }, scope: .hostRules(prefix: prefix))
        var configuration = DaemonConfiguration()
        configuration.host = base
        try reader.read(table, into: &configuration)
        return configuration.host
    }
}

/// Group names for `control.admin_groups`.
public enum SystemGroups {
    /// The gid of the group `name` in the system's group database, or nil.
    public static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil else { return nil }
        return UInt32(entry.gr_gid)
    }
}

/// Relative paths in the config file and flags are resolved against the current directory.
enum ConfigPath {
    static func resolve(_ path: String, in directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        var components: [Substring] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}

/// Reading the file itself, with the system's reason when it cannot be read.
enum ConfigFile {
    static func read(_ path: String) throws(ConfigError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigError(
                kind: .fileNotFound, file: path,
                message: "no such file; check the path given to --config, or copy config/widgethost.toml there")
        }
        guard !isDirectory.boolValue else {
            throw ConfigError(kind: .unreadable, file: path, message: "is a directory; give the path of a .toml file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = access(path, R_OK) == 0 ? "\(error.localizedDescription)" : String(cString: strerror(errno))
            throw ConfigError(
                kind: .unreadable, file: path,
                message: "cannot be read (\(reason)); check its permissions (widgethostd must be able to read it)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(kind: .unreadable, file: path, message: "is not UTF-8 text; save it as UTF-8")
        }
        return text
    }
}
