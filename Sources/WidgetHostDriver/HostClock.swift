import Foundation

/// Where the driver gets "now" from. The core is always told the time; this is the one
/// place a shell reads it.
public protocol HostClock: Sendable {
    var now: Date { get }
}

/// A clock that only moves when told to (never backwards): what the driver advances for the
/// `clock` method of `widgethostd --virtual-clock`.
public protocol AdjustableClock: HostClock {
    /// Moves the clock to `date`, or leaves it where it is if `date` is earlier.
    func jump(to date: Date)
}

/// The wall clock (the daemon's normal mode).
public struct WallClock: HostClock {
    public init() {}
    public var now: Date { Date() }
}

/// `widgethostd --virtual-clock START`: the wall clock shifted by an offset that only
/// `jump(to:)` changes, so time runs at the real rate (deadlines and timeouts stay real)
/// until a client advances it. Extensions see the same time through libfaketime, which
/// re-reads the offset from `timestampFile` on every call (`FakeTime.Clock.following`).
public final class VirtualClock: AdjustableClock, @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval
    /// Holds `+SECONDS`, libfaketime's relative form, rewritten at every jump.
    public let timestampFile: String

    public init(start: Date, timestampFile: String) {
        offset = start.timeIntervalSinceNow
        self.timestampFile = timestampFile
        writeTimestampFile()
    }

    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return Date() + offset
    }

    /// Moves the clock to `date` (never backwards).
    public func jump(to date: Date) {
        lock.lock()
        offset = max(offset, date.timeIntervalSinceNow)
        lock.unlock()
        writeTimestampFile()
    }

    private func writeTimestampFile() {
        lock.lock()
        let text = String(format: "%+.3f\n", offset)
        lock.unlock()
        try? text.write(toFile: timestampFile, atomically: true, encoding: .utf8)
    }
}
