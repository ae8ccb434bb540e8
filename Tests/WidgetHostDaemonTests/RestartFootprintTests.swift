import Foundation
import Testing
@testable import WidgetHostCore
import WidgetHostDaemon
import WidgetHostProtocol

/// docs/benchmarks.md, figure 4: RssAnon of a daemon restarted on 10,000 widgets ≤ 20 MiB.
/// Measured here as the difference between a real widgethostd (the debug build) started on
/// 10,000 stored records and one started on none, so that what the binary itself costs cancels.
@Suite("Restart footprint", .serialized)
struct RestartFootprintTests {
    static let widgets = 10_000
    /// 20 MiB less the 3 MiB a daemon hosting nothing holds.
    static let boundKiB = 17 * 1024

    @Test("A daemon restarted on 10,000 widgets holds at most 17 MiB more RssAnon than one with none (49 MiB more before)")
    func restartedOnTenThousand() throws {
        let empty = ScratchDirectory()
        let full = ScratchDirectory()
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        do {
            let store = try SQLiteStateStore(directory: full.sub("state"))
            try store.write(
                host: hostRecord(boot: Self.bootID(), next: Self.widgets + 1),
                changed: (1...Self.widgets).map { Self.servedRecord($0, now: now) }, removed: [])
        }
        let base = try Self.rssAnonKiBAfterStart(in: empty)
        let restored = try Self.rssAnonKiBAfterStart(in: full)
        #expect(restored - base <= Self.boundKiB, "restarted on \(Self.widgets): \(restored) KiB, with none: \(base) KiB")
    }

    /// What the benchmark's widgets look like once served: a one-entry timeline due in 6 hours,
    /// the placeholder, the entry shown, the last outcome.
    static func servedRecord(_ number: Int, now: Date) -> WidgetRecord {
        let info = WidgetInfo(
            id: "w\(number)", kind: "BenchWidget", family: .systemSmall, app: "org.widgethost.bench",
            extension: "org.widgethost.bench.widget")
        var record = WidgetRecord(info: info, addedAt: now, pinnedBudget: nil)
        let entry = TimelineEntryPayload(date: now, content: .object(["pid": .integer(31_920), "serial": .integer(number)]))
        record.placeholder = TimelineEntryPayload(date: now, content: .object(["pid": .integer(31_920), "serial": .integer(0)]))
        record.timeline = AcceptedTimeline(entries: [entry], policy: .after(now + 6 * 3600), receivedAt: now, reloadStartedAt: now)
        record.shown = CurrentEntry(source: .timeline, entry: entry)
        record.lastOutcome = LastOutcome(result: .success, startedAt: now, finishedAt: now + 1, peakFootprintBytes: 1_863_680, detail: nil)
        return record
    }

    /// This boot's id, so that the restart is not a reboot (which would reload every widget).
    static func bootID() throws -> String {
        try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts widgethostd on `directory`'s state, waits for its "ready" line, reads its
    /// RssAnon, and stops it.
    static func rssAnonKiBAfterStart(in directory: ScratchDirectory) throws -> Int {
        try FileManager.default.createDirectory(atPath: directory.sub("plugins"), withIntermediateDirectories: true)
        let config = """
            [socket]
            path = "\(directory.sub("s.sock"))"
            [state]
            path = "\(directory.sub("state"))"
            [plugins]
            paths = ["\(directory.sub("plugins"))"]
            [app_groups]
            path = "\(directory.sub("groups"))"
            [log]
            level = "notice"
            """
        try config.write(toFile: directory.sub("widgethost.toml"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(packageRoot)/.build/debug/widgethostd")
        process.arguments = ["--config", directory.sub("widgethost.toml")]
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var log = Data()
        while !String(decoding: log, as: UTF8.self).contains("widgethostd ready") {
            let chunk = errors.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ReadyError(log: String(decoding: log, as: UTF8.self)) }
            log += chunk
        }
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        return try #require(Int(line.split(whereSeparator: \.isWhitespace)[1]))
    }

    struct ReadyError: Error, CustomStringConvertible {
        var log: String
        var description: String { "widgethostd stopped before it was ready: \(log)" }
    }
}
