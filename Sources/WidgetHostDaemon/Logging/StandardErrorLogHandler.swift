import Foundation
import Logging

/// A swift-log handler for a terminal or a plain log file: one line per message on stderr,
/// `LEVEL message key=value…`, metadata sorted by key, so that lines from a test run or a
/// foreground `widgethostd` compare and grep well. (The journal adds its own timestamps,
/// and so does any process supervisor that collects stderr.)
public struct StandardErrorLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public let label: String

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        if let error = event.error { merged["error"] = "\(error)" }
        Self.write(level: event.level, message: event.message.description, metadata: merged)
    }

    /// Writes one line with a single `write(2)`, so lines from several threads never interleave.
    static func write(level: Logger.Level, message: String, metadata: Logger.Metadata) {
        let line = Array((format(level: level, message: message, metadata: metadata) + "\n").utf8)
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// `LEVEL message key=value…`: the level upper-case, newlines escaped so that one
    /// message is one line, values quoted when they hold spaces, quotes or `=`.
    static func format(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line = "\(level.rawValue.uppercased()) \(escaped(message))"
        for key in metadata.keys.sorted() {
            line += " \(escaped(key))=\(quotedIfNeeded(escaped("\(metadata[key]!)")))"
        }
        return line
    }

    private static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
    }

    private static func quotedIfNeeded(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
