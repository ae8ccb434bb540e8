import Foundation

/// Where the runtime gets "now" from. The core is always told the time; this is the one
/// place the daemon reads it.
public protocol HostClock: Sendable {
    var now: Date { get }
}

/// The wall clock (the daemon's normal mode).
public struct WallClock: HostClock {
    public init() {}
    public var now: Date { Date() }
}
