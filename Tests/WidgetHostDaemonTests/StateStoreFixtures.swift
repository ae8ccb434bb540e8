import Foundation
import Testing
@testable import WidgetHostCore
import WidgetHostDaemon
import WidgetHostDriver
import WidgetHostProtocol

extension Tag {
    /// Runs the `sqlite3` command-line shell (Debian's `sqlite3`, installed by `make deps`).
    @Tag static var sqliteShell: Self
}

/// 2026-02-15T00:00:00Z. Whole seconds (and halves) survive RFC 3339 exactly, so records
/// built from these instants compare equal after a round trip through the file.
let stateT0 = Date(timeIntervalSince1970: 1_771_113_600)

/// A fresh directory under the system's temporary directory, removed when released.
final class ScratchDirectory {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-state-\(UUID().uuidString)").path
    }

    /// `path/sub`, not created.
    func sub(_ name: String) -> String { path + "/" + name }

    var stateFile: String { path + "/widgethost.sqlite" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A widget record with every part the core persists filled in: a timeline with its policy,
/// the previous entry and placeholder, a budget ledger, views, backoff, a pending (deferred)
/// and a running reload, the last outcome, diagnostics and the entry shown.
func richRecord(_ number: Int, kind: String = "BirthdayHomeWidget") -> WidgetRecord {
    let t = stateT0 + Double(number) * 3600
    let info = WidgetInfo(
        id: "w\(number)", kind: kind, family: number.isMultiple(of: 2) ? .systemMedium : .accessoryInline,
        app: "com.birthdayreminders", extension: "com.birthdayreminders.widget")
    var record = WidgetRecord(info: info, addedAt: t, pinnedBudget: number == 2 ? 40 : nil)
    let content: JSONValue = .object([
        "name": .string("Ada \(number)"), "age": .integer(36), "share": .number(0.5),
        "tags": .array([.bool(true), .null, .string("π ✓")]),
    ])
    let entries = (0..<3).map {
        TimelineEntryPayload(
            date: t + Double($0) * 1800, relevance: $0 == 0 ? EntryRelevance(score: 0.5, duration: 600) : nil,
            content: content)
    }
    record.timeline = AcceptedTimeline(
        entries: entries, policy: number == 3 ? .atEnd : .after(t + 7200), receivedAt: t + 61.5, reloadStartedAt: t + 60)
    record.previousEntry = TimelineEntryPayload(date: t - 600, content: .string("before"))
    record.placeholder = TimelineEntryPayload(date: t, content: .object(["placeholder": .bool(true)]))
    record.ledger = (0..<number).map { t + Double($0) * 900 }
    record.views = [t + 100, t + 200.5]
    record.backoff.recordFailure(at: t + 300, rules: BackoffRules())
    var pending = PendingReload(requestedAt: t + 400, cause: .requested, exemption: number == 1 ? .foreground : nil)
    pending.deferredUntil = t + 1200
    pending.deferredBy = .minInterval
    record.pending = pending
    if number != 1 {
        record.running = RunningReload(startedAt: t + 500, requestedAt: t + 450, budgeted: true, exemption: nil, cause: .policy)
    }
    record.lastOutcome = LastOutcome(
        result: .timedOut, startedAt: t + 60, finishedAt: t + 90, peakFootprintBytes: 12_345_678,
        detail: "no answer in 30 s")
    record.diagnostics = [
        Diagnostic(at: t + 90, code: "timedOut", severity: .warning, message: "timeline/get took longer than 30 s")
    ]
    record.shown = CurrentEntry(source: .timeline, entry: entries[0])
    return record
}

func hostRecord(boot: String = "8a1c7e2e-7b0f-4c55-9d0c-2f5d5b3e9a41", next: Int = 4) -> HostRecord {
    var host = HostRecord()
    host.bootID = boot
    host.nextWidgetNumber = next
    return host
}

/// The bytes of a file, or nil when it does not exist.
func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// The names in a directory, sorted.
func listing(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// Runs `script` (SQL and dot-commands, one per line) through `sqlite3 -batch path` and
/// returns its standard output, trimmed.
func sqlite3(_ path: String, _ script: String) throws -> String {
    let run = try runSQLite3(path, script)
    guard run.reason == .exit && run.status == 0 else {
        throw SQLiteShellError(status: run.status, message: run.errors)
    }
    return run.output
}

/// Runs `sqlite3 -batch path` with `script` on its standard input, however it ends.
func runSQLite3(_ path: String, _ script: String) throws
    -> (reason: Process.TerminationReason, status: Int32, output: String, errors: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-batch", path]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data((script + "\n").utf8))
    try input.fileHandleForWriting.close()
    let text = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationReason, process.terminationStatus,
        String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
        String(decoding: errorText, as: UTF8.self)
    )
}

struct SQLiteShellError: Error, CustomStringConvertible {
    var status: Int32
    var message: String
    var description: String { "sqlite3 exited with \(status): \(message)" }
}

/// Builds a state file of `records` in `directory` and closes it, leaving only the file
/// (the last connection's close checkpoints and removes the WAL).
func makeStateFile(in directory: String, records: [WidgetRecord] = [richRecord(1), richRecord(2)]) throws {
    let store = try SQLiteStateStore(directory: directory)
    try store.write(host: hostRecord(), changed: records, removed: [])
}
