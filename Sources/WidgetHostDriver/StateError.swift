import Foundation

/// Why the state could not be read or written. The two refusals (`newerSchema`,
/// `unreadable`) stop the daemon before it changes anything; their descriptions tell the
/// user how to go on.
public enum StateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file was written by a newer widgethost whose schema this one does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file is not a readable widgethost state file: corrupt, truncated, not SQLite,
    /// another program's database, or a record that does not decode.
    case unreadable(path: String, sqliteMessage: String)
    /// The state directory could not be created or is not a directory.
    case directory(path: String, reason: String)
    /// A write transaction failed; nothing of it was stored.
    case writeFailed(path: String, sqliteMessage: String)
    /// A record could not be encoded as JSON; nothing of the write was stored.
    case unencodable(widget: String, reason: String)

    public var description: String {
        switch self {
        case .newerSchema(let path, let found, let supported):
            "\(path): written by a newer widgethost (state schema version \(found); this widgethostd knows up to "
                + "version \(supported)), so widgethostd will not start on it and has not changed it. Upgrade "
                + "widgethost, or move the state aside to start with no widgets: \(Self.moveAside(path, to: "newer"))"
        case .unreadable(let path, let sqliteMessage):
            "\(path): not readable as widgethost state: \(sqliteMessage). widgethostd will not start on it and has "
                + "not changed it. Run `widgethostd --state-check` to see what is wrong; to start over with no "
                + "widgets, move the state aside: \(Self.moveAside(path, to: "broken"))"
        case .directory(let path, let reason):
            "\(path): cannot use as the state directory: \(reason); set state.path to a directory widgethostd may "
                + "create and write"
        case .writeFailed(let path, let sqliteMessage):
            "\(path): could not write the state: \(sqliteMessage); nothing of this step was stored (check free "
                + "space and permissions, then `widgethostd --state-check`)"
        case .unencodable(let widget, let reason):
            "widget \(widget): its record could not be encoded as JSON (\(reason)); nothing of this step was stored"
        }
    }

    /// The exact shell command that moves the state file and its `-wal`/`-shm` companions
    /// into a new folder beside it, keeping them together so that `sqlite3` can still read
    /// them there. `mkdir` fails rather than mixing with an earlier folder of that name.
    static func moveAside(_ path: String, to name: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let file = url.lastPathComponent
        let stem = file.hasSuffix(".sqlite") ? String(file.dropLast(".sqlite".count)) : file
        let folder = shellQuoted(url.deletingLastPathComponent().appendingPathComponent(stem + "." + name).path)
        return "mkdir \(folder) && mv \(shellQuoted(directory))/\(shellQuoted(file))* \(folder)/"
    }

    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "/._-+,:@".unicodeScalars.contains($0)
        }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
