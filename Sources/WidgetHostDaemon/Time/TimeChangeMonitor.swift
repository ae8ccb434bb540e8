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
/// The event loop reads both descriptors (`DescriptorChannel`); nothing here wakes while
/// nothing changes.
///
/// Everything but `init`, `start` and `stop` runs on the event loop; that confinement is the
/// `@unchecked Sendable`.
public final class TimeChangeMonitor: @unchecked Sendable {
    private let eventLoop: any EventLoop
    private let settle: TimeAmount
    private let minimumJump: TimeInterval
    private let report: ([TimeChange]) -> Void
    private var clockTimer: ClockSetTimer?
    private var zoneWatch: TimeZoneWatch?
    private var clockChannel: (any Channel)?
    private var zoneChannel: (any Channel)?
    /// Set by a clock set: NIO closes the timer's channel after that failed read, and it is
    /// opened again. After any other failure it stays closed.
    private var reopenClock = false
    private var stopped = false
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

    /// Starts reading the descriptors on the event loop; succeeds once both are read there.
    /// Changes from `init` on are seen: the kernel keeps them until the first read.
    @discardableResult
    public func start() -> EventLoopFuture<Void> {
        eventLoop.flatSubmit { [self] in
            var opened = [openClock()]
            if let zone = zoneWatch {
                opened.append(
                    DescriptorChannel.open(
                        duplicating: zone.descriptor, on: eventLoop,
                        onRead: { [self] buffer in
                            if buffer.withUnsafeReadableBytes({ zone.concernsFile(Array($0)[...]) }) { noted(.timeZone) }
                        },
                        onError: { [self] _ in noted(.timeZone) }  // one may have been lost
                    ).map { [self] channel in zoneChannel = channel })
            }
            return EventLoopFuture.andAllSucceed(opened, on: eventLoop)
        }
    }

    /// Stops watching and closes the descriptors; nothing is reported afterwards.
    public func stop() {
        if eventLoop.inEventLoop {
            stopOnLoop()
        } else {
            try? eventLoop.submit { [self] in stopOnLoop() }.wait()
        }
    }

    private func stopOnLoop() {
        stopped = true
        clockChannel?.close(promise: nil)
        zoneChannel?.close(promise: nil)
        clockChannel = nil
        zoneChannel = nil
        clockTimer = nil
        zoneWatch = nil
        delivery?.cancel()
        delivery = nil
        pending = []
    }

    private func openClock() -> EventLoopFuture<Void> {
        guard let timer = clockTimer, !stopped else { return eventLoop.makeSucceededVoidFuture() }
        return DescriptorChannel.open(
            duplicating: timer.descriptor, on: eventLoop,
            onRead: { [self] buffer in
                let expirations = buffer.getInteger(at: buffer.readerIndex, endianness: .host, as: UInt64.self) ?? 0
                clockRead(bytesRead: buffer.readableBytes, errno: 0, expirations: expirations)
            },
            onError: { [self] error in
                // A clock set is a failed read (ECANCELED), which NIO reports as an error.
                let code = (error as? IOError)?.errnoCode ?? EIO
                reopenClock = code == ECANCELED
                clockRead(bytesRead: -1, errno: code, expirations: 0)
            },
            onClose: { [self] in
                clockChannel = nil
                if reopenClock, !stopped {
                    reopenClock = false
                    openClock().whenFailure { [self] _ in noted(.clockSet) }
                }
            }
        ).map { [self] channel in clockChannel = channel }
    }

    private func clockRead(bytesRead: Int, errno code: Int32, expirations: UInt64) {
        guard let timer = clockTimer else { return }
        do {
            switch try timer.outcome(bytesRead: bytesRead, errno: code, expirations: expirations) {
            case .clockSet(let jump) where abs(jump) >= minimumJump: noted(.clockSet)
            case .expired: noted(.clockSet)
            default: break
            }
        } catch {
            noted(.clockSet)  // re-arming failed or the read did: report the set we may have missed
        }
    }

    /// Gathers the burst and reports it once it settles.
    private func noted(_ change: TimeChange) {
        guard !stopped else { return }
        if change == .timeZone { Self.reloadTimeZone() }
        pending.insert(change)
        guard delivery == nil else { return }
        delivery = eventLoop.scheduleTask(in: settle) { [self] in
            let changes = pending.sorted()
            pending = []
            delivery = nil
            if !changes.isEmpty { report(changes) }
        }
    }

    /// Makes this process see the new zone: the C library and Foundation cache it.
    static func reloadTimeZone() {
        tzset()
        NSTimeZone.resetSystemTimeZone()
    }
}
