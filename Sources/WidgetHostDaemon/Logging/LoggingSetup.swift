import Foundation
import Logging

/// Where log lines go.
public enum LogDestination: String, Sendable, Equatable {
    /// journald's native protocol (`JournalLogHandler`).
    case journal
    /// Plain lines on stderr (`StandardErrorLogHandler`).
    case standardError
}

/// The `dev:ino` of the stream systemd connected stdout/stderr to (`JOURNAL_STREAM`,
/// systemd.exec(5)). Only if stderr is still that very stream — not redirected by a
/// wrapper script, not inherited by a child started from a shell — does the daemon talk
/// to journald directly.
struct JournalStream: Equatable {
    var device: UInt64
    var inode: UInt64

    /// Parses `JOURNAL_STREAM`'s value: two decimal numbers joined by `:`.
    init?(_ value: String) {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        self.device = device
        self.inode = inode
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The stream `descriptor` is, by `fstat`.
    init?(descriptor: CInt) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}

/// The one place logging is set up. `main` calls `bootstrap(level:)` once, first thing after
/// reading the socket-activation descriptors.
public enum LoggingSetup {
    /// The destination for this process: the journal when `JOURNAL_STREAM` names the stream
    /// `descriptor` (stderr) is, stderr otherwise.
    public static func destination(
        environment: [String: String] = ProcessInfo.processInfo.environment, standardError descriptor: CInt = 2
    ) -> LogDestination {
        guard let value = environment["JOURNAL_STREAM"], let expected = JournalStream(value),
            let actual = JournalStream(descriptor: descriptor), actual == expected
        else { return .standardError }
        return .journal
    }

    /// A handler for `label` writing to `destination` at `level`.
    public static func makeHandler(
        label: String, level: Logger.Level, destination: LogDestination,
        metadataProvider: Logger.MetadataProvider? = nil
    ) -> any LogHandler {
        var handler: any LogHandler =
            switch destination {
            case .journal: JournalLogHandler(label: label, metadataProvider: metadataProvider)
            case .standardError: StandardErrorLogHandler(label: label, metadataProvider: metadataProvider)
            }
        handler.logLevel = level
        return handler
    }

    /// Routes every swift-log `Logger` of the process to the journal or to stderr (see
    /// `destination`), at `level`. Call once, before the first `Logger` is made; returns the
    /// destination chosen, which is worth a line in the log.
    @discardableResult
    public static func bootstrap(level: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil) -> LogDestination {
        let destination = destination()
        LoggingSystem.bootstrap(
            { label, provider in
                makeHandler(label: label, level: level, destination: destination, metadataProvider: provider)
            }, metadataProvider: metadataProvider)
        return destination
    }
}
