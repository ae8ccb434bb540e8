import Foundation

/// `clock` params: with neither field, only reads the clock. Only a daemon started with
/// `--virtual-clock` can be advanced.
public struct ClockParams: Sendable, Hashable, Codable {
    /// Advance by this many seconds.
    public var advance: Double?
    /// Advance to this instant.
    public var until: Date?

    public init(advance: Double? = nil, until: Date? = nil) {
        self.advance = advance
        self.until = until
    }
}

public struct ClockResult: Sendable, Hashable, Codable {
    public var now: Date
    /// Whether the daemon runs on a virtual clock.
    public var virtual: Bool
    /// How many of the core's deadlines were handled on the way.
    public var deadlinesHandled: Int
    /// The next deadline after the new now, if any.
    public var nextDeadline: Date?

    public init(now: Date, virtual: Bool, deadlinesHandled: Int, nextDeadline: Date?) {
        self.now = now
        self.virtual = virtual
        self.deadlinesHandled = deadlinesHandled
        self.nextDeadline = nextDeadline
    }
}
