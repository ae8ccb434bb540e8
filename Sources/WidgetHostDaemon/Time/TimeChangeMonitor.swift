import Foundation
import NIOCore

/// A change of time that is not time passing: WidgetKit's "significant time change".
public enum TimeChange: String, Sendable, Hashable, Comparable {
    /// The wall clock was set (a jump forwards or backwards).
    case clockSet
    /// The system time zone changed (`/etc/localtime`).
    case timeZone

    public static func < (lhs: TimeChange, rhs: TimeChange) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Watches for wall-clock sets (`ClockSetTimer`) and time-zone changes (`TimeZoneWatch`)
/// and reports them on the runtime's event loop, one report per burst: replacing
/// `/etc/localtime` is several file events, and an NTP step may come with a zone change.
/// The descriptors are read on a `DescriptorWatch` thread, which hops to the loop; nothing
/// here wakes while nothing changes.
public final class TimeChangeMonitor: @unchecked Sendable {
    private let eventLoop: any EventLoop
    private let settle: TimeAmount
    private let minimumJump: TimeInterval
    private let report: ([TimeChange]) -> Void
    // Read on the watch thread; released by `stop()` once that thread is done.
    private var clockTimer: ClockSetTimer?
    private var zoneWatch: TimeZoneWatch?
    private var watch: DescriptorWatch?
    // On the event loop:
    private var pending: Set<TimeChange> = []
    private var delivery: Scheduled<Void>?

    /// - Parameters:
    ///   - localtimePath: the zone file to watch (`/etc/localtime`; tests pass a temporary one).
    ///   - watchClock: whether to watch for clock sets (tests of the zone path turn it off).
    ///   - settle: how long to gather events of one burst before reporting.
    ///   - minimumJump: the smallest clock set (in seconds, either way) that counts; an NTP
    ///     step of a few milliseconds changes no widget and is not reported.
    ///   - report: called on `eventLoop` with the changes of one burst, sorted.
    public init(
        localtimePath: String = "/etc/localtime", watchClock: Bool = true, on eventLoop: any EventLoop,
        settle: TimeAmount = .milliseconds(100), minimumJump: TimeInterval = 1,
        report: @escaping ([TimeChange]) -> Void
    ) throws {
        self.eventLoop = eventLoop
        self.settle = settle
        self.minimumJump = minimumJump
        self.report = report
        clockTimer = watchClock ? try ClockSetTimer() : nil
        zoneWatch = try TimeZoneWatch(localtimePath: localtimePath)
    }

    /// Starts reading the descriptors.
    public func start() throws {
        var watched: [DescriptorWatch.Watched] = []
        if let timer = clockTimer {
            watched.append(DescriptorWatch.Watched(descriptor: timer.descriptor) { [self] in
                do {
                    switch try timer.read() {
                    case .clockSet(let jump) where abs(jump) >= minimumJump: noted(.clockSet)
                    case .expired: noted(.clockSet)
                    default: break
                    }
                } catch {
                    noted(.clockSet)  // re-arming failed; report the set we saw, the next read retries
                }
            })
        }
        if let zone = zoneWatch {
            watched.append(DescriptorWatch.Watched(descriptor: zone.descriptor) { [self] in
                if (try? zone.read()) ?? true { noted(.timeZone) }
            })
        }
        let watch = try DescriptorWatch(watched)
        watch.start(name: "widgethost.time-changes")
        self.watch = watch
    }

    /// Stops watching and closes the descriptors; nothing is reported afterwards.
    public func stop() {
        watch?.stop()
        watch = nil
        clockTimer = nil
        zoneWatch = nil
        eventLoop.execute { [self] in
            delivery?.cancel()
            delivery = nil
            pending = []
        }
    }

    /// Called on the watch thread; gathers the burst on the loop and reports it once it settles.
    private func noted(_ change: TimeChange) {
        if change == .timeZone { Self.reloadTimeZone() }
        eventLoop.execute { [self] in
            pending.insert(change)
            guard delivery == nil else { return }
            delivery = eventLoop.scheduleTask(in: settle) { [self] in
                let changes = pending.sorted()
                pending = []
                delivery = nil
                if !changes.isEmpty { report(changes) }
            }
        }
    }

    /// Makes this process see the new zone: the C library and Foundation cache it.
    static func reloadTimeZone() {
        tzset()
        NSTimeZone.resetSystemTimeZone()
    }
}
