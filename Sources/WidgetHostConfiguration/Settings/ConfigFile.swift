import Foundation

/// Reading a config file, with the system's reason when it cannot be read.
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
