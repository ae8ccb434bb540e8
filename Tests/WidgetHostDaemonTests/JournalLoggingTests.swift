import Foundation
import Logging
import Synchronization
import Testing
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Logging: journald's native protocol when stderr is the journal stream, plain lines otherwise.
@Suite("Journal and stderr logging")
struct JournalLoggingTests {
    /// A pipe whose write end stands in for stderr; `JOURNAL_STREAM` for it, as systemd would set it.
    final class Stream {
        let descriptors: [CInt]
        var writeEnd: CInt { descriptors[1] }
        init() {
            var pair: [CInt] = [0, 0]
            pipe(&pair)
            descriptors = pair
        }
        deinit { descriptors.forEach { close($0) } }

        var journalStream: String {
            var status = stat()
            fstat(writeEnd, &status)
            return "\(status.st_dev):\(status.st_ino)"
        }
    }

    @Test("JOURNAL_STREAM naming stderr's device and inode selects the journal")
    func matchingStream() {
        let stream = Stream()
        #expect(
            LoggingSetup.destination(environment: ["JOURNAL_STREAM": stream.journalStream], standardError: stream.writeEnd)
                == .journal)
        let handler = LoggingSetup.makeHandler(label: "t", level: .debug, destination: .journal)
        #expect(handler is JournalLogHandler)
        #expect(handler.logLevel == .debug)
    }

    @Test(
        "Anything else selects stderr",
        arguments: [
            nil, "", "garbage", "12", "1:2:3", "-1:5", "0:0",
        ] as [String?])
    func otherStreams(value: String?) {
        let stream = Stream()
        var environment: [String: String] = [:]
        environment["JOURNAL_STREAM"] = value
        #expect(LoggingSetup.destination(environment: environment, standardError: stream.writeEnd) == .standardError)
        #expect(LoggingSetup.makeHandler(label: "t", level: .info, destination: .standardError) is StandardErrorLogHandler)
    }

    @Test("A JOURNAL_STREAM inherited from another stream (stderr redirected) selects stderr")
    func redirectedStream() {
        let journal = Stream()
        let redirected = Stream()
        #expect(
            LoggingSetup.destination(
                environment: ["JOURNAL_STREAM": journal.journalStream], standardError: redirected.writeEnd)
                == .standardError)
    }

    @Test("bootstrap(level:) routes every Logger to the journal handler when stderr is the journal stream")
    func bootstrapChoosesJournal() async {
        await #expect(processExitsWith: .success) {
            // Make stderr a stream of known identity and announce it, as systemd does.
            var pair: [CInt] = [0, 0]
            pipe(&pair)
            dup2(pair[1], 2)
            var status = stat()
            fstat(2, &status)
            setenv("JOURNAL_STREAM", "\(status.st_dev):\(status.st_ino)", 1)
            #expect(LoggingSetup.bootstrap(level: .notice) == .journal)
            let logger = Logger(label: "widgethostd")
            #expect(logger.handler is JournalLogHandler)
            #expect(logger.logLevel == .notice)
        }
        await #expect(processExitsWith: .success) {
            setenv("JOURNAL_STREAM", "1:1", 1)
            #expect(LoggingSetup.bootstrap(level: .info) == .standardError)
            #expect(Logger(label: "widgethostd").handler is StandardErrorLogHandler)
        }
    }

    @Test("An entry carries MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, CODE_FILE/LINE/FUNC and each metadata key as a field")
    func entryFields() {
        let sent = Mutex<[[String]]>([])
        var logger = Logger(label: "widgethostd") { label in
            JournalLogHandler(label: label, identifier: "widgethostd", metadataProvider: nil) { fields in
                sent.withLock { $0.append(fields) }
                return true
            }
        }
        logger.logLevel = .debug
        logger[metadataKey: "EXTENSION"] = "com.birthdayreminders.widget"
        let line = #line + 1
        logger.warning("reload finished: timedOut", metadata: ["WIDGET_ID": "w1", "WIDGET_KIND": "BirthdayHomeWidget", "OUTCOME": "timedOut"])
        let fields = sent.withLock { $0 }.first ?? []
        #expect(
            fields == [
                "MESSAGE=reload finished: timedOut", "PRIORITY=4", "SYSLOG_IDENTIFIER=widgethostd",
                "CODE_FILE=\(#fileID)", "CODE_LINE=\(line)", "CODE_FUNC=entryFields()",
                "EXTENSION=com.birthdayreminders.widget", "OUTCOME=timedOut", "WIDGET_ID=w1",
                "WIDGET_KIND=BirthdayHomeWidget",
            ])
    }

    @Test("swift-log levels map onto syslog priorities")
    func priorities() {
        let expected: [(Logger.Level, Int)] = [
            (.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ]
        for (level, priority) in expected {
            #expect(JournalLogHandler.priority(of: level) == priority, "\(level)")
        }
    }

    @Test(
        "Metadata keys become valid journal field names",
        arguments: [
            ("widget_kind", "WIDGET_KIND"), ("peer.uid", "PEER_UID"), ("_SYSTEMD_UNIT", "SYSTEMD_UNIT"),
            ("1st", "F_1ST"), ("", "F_"), ("MESSAGE", "META_MESSAGE"), ("priority", "META_PRIORITY"),
            ("élan", "LAN"), (String(repeating: "a", count: 80), String(repeating: "A", count: 64)),
        ])
    func fieldNames(key: String, field: String) {
        let name = JournalLogHandler.fieldName(forMetadataKey: key)
        #expect(name == field)
        #expect(name.count <= 64)
        #expect(!name.hasPrefix("_"))
        #expect(name.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") })
    }

    @Test("When journald does not take an entry, the line goes to stderr instead")
    func fallbackToStandardError() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let logger = Logger(label: "widgethostd") { label in
                JournalLogHandler(label: label, identifier: "widgethostd", metadataProvider: nil) { _ in false }
            }
            logger.error("cannot write state", metadata: ["WIDGET_ID": "w2"])
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("ERROR cannot write state WIDGET_ID=w2\n"), "\(text)")
        }
    }

    @Test("stderr lines: LEVEL message key=value…, sorted, one line per message")
    func plainLines() {
        #expect(
            StandardErrorLogHandler.format(
                level: .info, message: "reload started (budgeted)",
                metadata: ["WIDGET_KIND": "BirthdayHomeWidget", "WIDGET_ID": "w1"])
                == "INFO reload started (budgeted) WIDGET_ID=w1 WIDGET_KIND=BirthdayHomeWidget")
        #expect(
            StandardErrorLogHandler.format(level: .warning, message: "two\nlines", metadata: ["detail": "a b=c \"q\""])
                == #"WARNING two\nlines detail="a b=c \"q\"""#)
        #expect(StandardErrorLogHandler.format(level: .critical, message: "x", metadata: ["empty": ""]) == #"CRITICAL x empty="""#)
    }

    /// True when no journald runs here and this process may stand in for it at the fixed
    /// path libsystemd sends to (/run/systemd/journal/socket).
    static let mayStandInForJournald: Bool = {
        !FileManager.default.fileExists(atPath: "/run/systemd/journal") && access("/run", W_OK) == 0
    }()

    @Test(
        "sd_journal_sendv delivers the fields in journald's native protocol, a multi-line message intact",
        .tags(.process),
        .enabled(if: mayStandInForJournald, "a real journald owns /run/systemd/journal; the fields are tested above"))
    func nativeProtocol() async {
        // In a child process: the stand-in socket exists only for the moment it runs.
        await #expect(processExitsWith: .success) {
            try FileManager.default.createDirectory(atPath: "/run/systemd/journal", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: "/run/systemd/journal") }
            let journal = try DatagramListener(path: "/run/systemd/journal/socket")
            let logger = Logger(label: "widgethostd") { JournalLogHandler(label: $0) }
            logger.notice("first line\nsecond line", metadata: ["WIDGET_KIND": "BirthdayHomeWidget", "OUTCOME": "success"])
            let datagram = try #require(journal.receive(timeout: 5), "nothing reached the journal socket")
            let fields = try #require(JournalNativeProtocol.parse(datagram), "not the native protocol")
            #expect(fields["MESSAGE"] == "first line\nsecond line")
            #expect(fields["PRIORITY"] == "5")
            #expect(fields["SYSLOG_IDENTIFIER"] == "widgethostd")
            #expect(fields["WIDGET_KIND"] == "BirthdayHomeWidget")
            #expect(fields["OUTCOME"] == "success")
            #expect(fields["CODE_FILE"]?.hasSuffix("JournalLoggingTests.swift") == true)
            #expect(fields["CODE_FUNC"] != nil && fields["CODE_LINE"] != nil)
        }
    }

    @Test("The native protocol reader handles plain and length-prefixed fields")
    func nativeProtocolReader() {
        var datagram = Array("MESSAGE\n".utf8)
        withUnsafeBytes(of: UInt64(3).littleEndian) { datagram += $0 }
        datagram += Array("a\nb\nPRIORITY=6\n".utf8)
        #expect(JournalNativeProtocol.parse(datagram) == ["MESSAGE": "a\nb", "PRIORITY": "6"])
        #expect(JournalNativeProtocol.parse(Array("MESSAGE\n\u{1}".utf8)) == nil)
    }
}

/// journald's native protocol (systemd.journal-fields(7), "Native Journal Protocol"): fields
/// `NAME=value\n`, or `NAME\n` + 64-bit little-endian length + value + `\n` for values that
/// hold newlines.
enum JournalNativeProtocol {
    static func parse(_ bytes: [UInt8]) -> [String: String]? {
        var fields: [String: String] = [:]
        var index = 0
        while index < bytes.count {
            guard let end = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "=") })
            else { return nil }
            let name = String(decoding: bytes[index..<end], as: UTF8.self)
            if bytes[end] == UInt8(ascii: "=") {
                guard let newline = bytes[end...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                fields[name] = String(decoding: bytes[(end + 1)..<newline], as: UTF8.self)
                index = newline + 1
            } else {
                guard end + 9 <= bytes.count else { return nil }
                let length = bytes[(end + 1)..<(end + 9)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let start = end + 9
                guard start + Int(length) < bytes.count, bytes[start + Int(length)] == UInt8(ascii: "\n") else { return nil }
                fields[name] = String(decoding: bytes[start..<(start + Int(length))], as: UTF8.self)
                index = start + Int(length) + 1
            }
        }
        return fields
    }
}

/// A bound datagram socket at `path`, removed on deinit.
final class DatagramListener {
    let path: String
    let descriptor: CInt

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    func receive(timeout: TimeInterval) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count >= 0 ? Array(buffer[0..<count]) : nil
    }
}
