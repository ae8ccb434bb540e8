import CSystemd
import Foundation

/// Notices the wall clock being *set* (an NTP step, `date -s`, `timedatectl set-time`) as
/// opposed to running: a `timerfd` on `CLOCK_REALTIME`, armed at the end of time with
/// `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`. It never expires; when the clock is set,
/// the pending read fails with `ECANCELED`, and the timer must be armed again. (The same
/// trick systemd uses for its own calendar timers.) The event loop reads it
/// (`DescriptorChannel`); `outcome` says what each read meant.
final class ClockSetTimer {
    /// What one read of the timer meant.
    enum ReadOutcome: Equatable {
        /// `ECANCELED`: the clock was set, moving it by `jump` seconds against the monotonic
        /// clock since the timer was armed (0 when a set kept the time, as NTP's small steps
        /// nearly do). Re-arm.
        case clockSet(jump: TimeInterval)
        /// The timer expired (only if the clock reached the end of time). Re-arm.
        case expired(count: UInt64)
        /// `EAGAIN`: nothing happened.
        case nothing
    }

    let descriptor: CInt
    /// Wall clock minus monotonic clock when the timer was last armed.
    private var offsetAtArm: TimeInterval = 0

    init() throws {
        descriptor = timerfd_create(CLOCK_REALTIME, CInt(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { throw TimeWatchError.current("timerfd_create") }
        do {
            try arm()
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    /// Arms the timer at the largest time the kernel accepts, cancelled by any clock set.
    func arm() throws {
        offsetAtArm = Self.wallClockOffset()
        var spec = itimerspec()
        spec.it_value.tv_sec = Int.max
        guard timerfd_settime(descriptor, CInt(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil) == 0 else {
            throw TimeWatchError.current("timerfd_settime")
        }
    }

    /// True while the timer is armed (what `arm()` guarantees after every read).
    var isArmed: Bool {
        var current = itimerspec()
        guard timerfd_gettime(descriptor, &current) == 0 else { return false }
        return current.it_value.tv_sec != 0 || current.it_value.tv_nsec != 0
    }

    /// What one read of the descriptor meant — `bytesRead` 8 with `expirations`, or -1 with
    /// `errno` — with the jump of a clock set measured; re-arms the timer when needed.
    func outcome(bytesRead: Int, errno code: Int32, expirations: UInt64) throws -> ReadOutcome {
        var outcome = try Self.interpret(bytesRead: bytesRead, errno: code, expirations: expirations)
        if case .clockSet = outcome { outcome = .clockSet(jump: Self.wallClockOffset() - offsetAtArm) }
        if outcome != .nothing { try arm() }
        return outcome
    }

    /// `CLOCK_REALTIME − CLOCK_MONOTONIC` in seconds: constant while time just passes.
    static func wallClockOffset() -> TimeInterval {
        var wall = timespec()
        var monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        return TimeInterval(wall.tv_sec - monotonic.tv_sec) + TimeInterval(wall.tv_nsec - monotonic.tv_nsec) / 1e9
    }

    /// The meaning of one `read(2)` of a timerfd: 8 bytes are an expiration count,
    /// `ECANCELED` a clock set, `EAGAIN` nothing; anything else is an error.
    static func interpret(bytesRead: Int, errno code: Int32, expirations: UInt64) throws -> ReadOutcome {
        if bytesRead == MemoryLayout<UInt64>.size { return .expired(count: expirations) }
        if bytesRead < 0 {
            switch code {
            case ECANCELED: return .clockSet(jump: 0)
            case EAGAIN, EINTR: return .nothing
            default: throw TimeWatchError(call: "read(timerfd)", code: code)
            }
        }
        throw TimeWatchError(call: "read(timerfd) of \(bytesRead) bytes", code: EIO)
    }
}

/// A system call of the time-change watches failed.
struct TimeWatchError: Error, CustomStringConvertible, Equatable {
    var call: String
    var code: Int32

    /// The current `errno`, for `call`.
    static func current(_ call: String) -> TimeWatchError { TimeWatchError(call: call, code: errno) }

    var description: String { "\(call): \(String(cString: strerror(code)))" }
}
