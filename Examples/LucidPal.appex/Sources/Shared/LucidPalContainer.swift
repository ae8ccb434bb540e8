#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// LucidPal's App Group container: `lucidpal_widget_snapshot.json` and the calendar events.
///
/// Readers (the widget) read without locking: every file is replaced atomically (written to
/// a temporary file, renamed over), so a reader sees the old file or the new one, never half.
/// Writers (the app's habit and note stores, possibly in different processes) do their
/// read-modify-write under an exclusive `flock` on `.lucidpal.lock`, so neither clobbers the
/// fields the other just wrote.
public struct LucidPalContainer: Sendable {
    public static let appGroup = "group.app.lucidpal"
    public static let snapshotFile = "lucidpal_widget_snapshot.json"
    public static let eventsFile = "lucidpal_calendar_events.json"

    public let url: URL

    public init(url: URL) { self.url = url }

    public static var shared: LucidPalContainer? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup).map(LucidPalContainer.init)
    }

    // MARK: Reader

    /// The snapshot, or nil before the app's first write (or if the file is not a snapshot):
    /// the widget then shows its empty state.
    public func readSnapshot() -> WidgetSnapshot? {
        guard let data = try? Data(contentsOf: url.appendingPathComponent(Self.snapshotFile)) else { return nil }
        return try? Self.decoder.decode(WidgetSnapshot.self, from: data)
    }

    /// The calendar events, none if the app has not shared any.
    public func readEvents() -> [CalendarEvent] {
        guard let data = try? Data(contentsOf: url.appendingPathComponent(Self.eventsFile)) else { return [] }
        return (try? Self.decoder.decode([CalendarEvent].self, from: data)) ?? []
    }

    // MARK: Writers (the app)

    /// `WidgetSnapshotWriter.writeHabits`: the habit fields and `writtenAt`; the note is kept.
    public func writeHabits(
        habitsToday: Int, habitsTotal: Int, topStreakName: String?, topStreakDays: Int, now: Date = Date()
    ) throws {
        try updateSnapshot { snapshot in
            snapshot.habitsToday = habitsToday
            snapshot.habitsTotal = habitsTotal
            snapshot.topStreakName = topStreakName
            snapshot.topStreakDays = topStreakName == nil ? 0 : topStreakDays
            snapshot.writtenAt = now
        }
    }

    /// `WidgetSnapshotWriter.writeNote`: the pinned note and `writtenAt`; the habits are kept.
    public func writeNote(pinnedNote: String?, now: Date = Date()) throws {
        try updateSnapshot { snapshot in
            snapshot.pinnedNote = pinnedNote
            snapshot.writtenAt = now
        }
    }

    public func updateSnapshot(_ change: (inout WidgetSnapshot) -> Void) throws {
        try locked {
            var snapshot = readSnapshot() ?? WidgetSnapshot()
            change(&snapshot)
            try write(snapshot, to: Self.snapshotFile)
        }
    }

    public func updateEvents(_ change: (inout [CalendarEvent]) -> Void) throws {
        try locked {
            var events = readEvents()
            change(&events)
            try write(events.sorted { ($0.start, $0.end) < ($1.start, $1.end) }, to: Self.eventsFile)
        }
    }

    private func write(_ value: some Encodable, to name: String) throws {
        // `.atomic`: a temporary file in the same directory, renamed over the old one.
        try Self.encoder.encode(value).write(to: url.appendingPathComponent(name), options: .atomic)
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let path = url.appendingPathComponent(".lucidpal.lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard fd >= 0 else { throw LockError(path: path, code: errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw LockError(path: path, code: errno) }
        }
        return try body()
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()

    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

public struct LockError: Error, CustomStringConvertible {
    let path: String
    let code: Int32
    public var description: String {
        "cannot lock \(path): \(String(cString: strerror(code))); check the App Group directory's permissions"
    }
}
