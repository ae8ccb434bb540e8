import CSystemd
import Foundation
import Logging

/// A swift-log handler that writes to journald in its native protocol (`sd_journal_sendv`):
/// `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`/`CODE_LINE`/`CODE_FUNC`, and every
/// metadata key as a field of its own, upper-cased (`WIDGET_ID`, `WIDGET_KIND`, `EXTENSION`,
/// `OUTCOME`, …), so that `journalctl -u widgethostd WIDGET_KIND=BirthdayHomeWidget` finds a
/// widget's lines. Chosen by `LoggingSetup` only when stderr is connected to the journal.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public let label: String
    /// `SYSLOG_IDENTIFIER=`, what `journalctl -t` and the short output show.
    public let identifier: String
    /// Sends one entry's fields; false when the journal did not take it.
    let send: @Sendable ([String]) -> Bool

    public init(label: String, identifier: String = "widgethostd", metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, identifier: identifier, metadataProvider: metadataProvider, send: Self.sendToJournal)
    }

    init(
        label: String, identifier: String, metadataProvider: Logger.MetadataProvider?,
        send: @escaping @Sendable ([String]) -> Bool
    ) {
        self.label = label
        self.identifier = identifier
        self.metadataProvider = metadataProvider
        self.send = send
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        var fields = Self.fields(
            level: event.level, message: event.message.description, metadata: merged,
            file: event.file, function: event.function, line: event.line, identifier: identifier)
        if let error = event.error { fields.append("ERROR=\(error)") }
        if !send(fields) {
            // journald is gone (or JOURNAL_STREAM lied): stderr still reaches whoever reads it.
            StandardErrorLogHandler.write(level: event.level, message: event.message.description, metadata: merged)
        }
    }

    /// The fields of one entry, `NAME=value` each, in a fixed order: the entry's own fields,
    /// then metadata sorted by field name.
    static func fields(
        level: Logger.Level, message: String, metadata: Logger.Metadata, file: String, function: String,
        line: UInt, identifier: String
    ) -> [String] {
        var fields = [
            "MESSAGE=\(message)",
            "PRIORITY=\(priority(of: level))",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "CODE_FILE=\(file)",
            "CODE_LINE=\(line)",
            "CODE_FUNC=\(function)",
        ]
        let named = metadata.map { (fieldName(forMetadataKey: $0.key), "\($0.value)") }
        for (name, value) in named.sorted(by: { $0.0 < $1.0 }) {
            fields.append("\(name)=\(value)")
        }
        return fields
    }

    /// Fields this handler sets itself; metadata with these names is prefixed `META_`.
    static let ownFields: Set<String> = [
        "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "ERROR",
        "MESSAGE_ID", "SYSLOG_FACILITY", "SYSLOG_PID", "SYSLOG_TIMESTAMP", "ERRNO", "INVOCATION_ID",
        "UNIT", "USER_UNIT",
    ]

    /// A metadata key as a journal field name: upper-case ASCII letters, digits and `_`,
    /// not starting with `_` (trusted fields, which journald drops) or a digit, at most 64
    /// characters, and never one of the handler's own fields.
    static func fieldName(forMetadataKey key: String) -> String {
        var name = String(
            key.uppercased().unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "A"..."Z", "0"..."9": Character(scalar)
                default: "_"
                }
            })
        while name.hasPrefix("_") { name.removeFirst() }
        if name.isEmpty || name.first!.isNumber { name = "F_" + name }
        if ownFields.contains(name) { name = "META_" + name }
        return String(name.prefix(64))
    }

    /// syslog priorities (sd-daemon.h): swift-log's seven levels onto syslog's eight.
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// `sd_journal_sendv` with one iovec per field (values may hold newlines or any bytes).
    static func sendToJournal(_ fields: [String]) -> Bool {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = bytes.count
            bytes.append(contentsOf: field.utf8)
            ranges.append(start..<bytes.count)
        }
        return bytes.withUnsafeMutableBytes { buffer in
            var vectors = ranges.map { range in
                iovec(iov_base: buffer.baseAddress.map { $0 + range.lowerBound }, iov_len: range.count)
            }
            return sd_journal_sendv(&vectors, CInt(vectors.count)) == 0
        }
    }
}
