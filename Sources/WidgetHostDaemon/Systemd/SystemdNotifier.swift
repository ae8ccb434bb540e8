import CSystemd
import Foundation
import NIOCore

/// One assignment of systemd's notification protocol (sd_notify(3)).
public enum ServiceState: Sendable, Hashable {
    /// `READY=1`: start-up finished (or a reload finished).
    case ready
    /// `RELOADING=1` with the `MONOTONIC_USEC=` at which the reload began.
    case reloading(monotonicMicroseconds: UInt64)
    /// `STOPPING=1`: shutting down.
    case stopping
    /// `WATCHDOG=1`: the keep-alive ping.
    case watchdog
    /// `STATUS=…`: one line for `systemctl status`.
    case status(String)
    /// `ERRNO=…`: why the service failed.
    case errno(Int32)

    /// The `KEY=value` line of this state. A status is kept to one line.
    var assignment: String {
        switch self {
        case .ready: "READY=1"
        case .reloading(let usec): "RELOADING=1\nMONOTONIC_USEC=\(usec)"
        case .stopping: "STOPPING=1"
        case .watchdog: "WATCHDOG=1"
        case .status(let line):
            "STATUS=" + line.map { $0.isNewline ? " " : String($0) }.joined()
        case .errno(let code): "ERRNO=\(code)"
        }
    }
}

/// Tells the service manager what the daemon is doing, through libsystemd's `sd_notify`
/// with a message built here (the variadic `sd_notifyf` is not callable from Swift).
/// Without `NOTIFY_SOCKET` (a daemon started from a shell) every call does nothing.
public struct SystemdNotifier: Sendable {
    public init() {}

    /// True when a service manager asked for notifications.
    public var isEnabled: Bool { getenv("NOTIFY_SOCKET") != nil }

    /// The datagram `sd_notify` sends for `states`, one assignment per line.
    public static func message(_ states: [ServiceState]) -> String {
        states.map(\.assignment).joined(separator: "\n")
    }

    /// Sends `states` in one datagram. Returns false when nothing was sent (no service
    /// manager, or the send failed — systemd then treats the service by its own timeouts).
    @discardableResult
    public func notify(_ states: ServiceState...) -> Bool {
        notify(states)
    }

    @discardableResult
    public func notify(_ states: [ServiceState]) -> Bool {
        guard !states.isEmpty else { return false }
        return Self.message(states).withCString { sd_notify(0, $0) } > 0
    }

    /// `CLOCK_MONOTONIC` in microseconds, the clock `MONOTONIC_USEC=` is read on.
    public static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}

extension SystemdNotifier {
    /// A fatal start-up error: `ERRNO=` and a `STATUS=` line with the message, so that
    /// `systemctl status widgethostd` shows why it failed. Call it before exiting non-zero.
    public func failed(_ error: any Error) {
        notify(.errno(Self.errnoCode(of: error)), .status("failed: \(error)"))
    }

    /// The errno that best names `error`: the failing call's own when there is one,
    /// `EADDRINUSE` for a socket another daemon serves, `EINVAL` for everything else
    /// (configuration and bundle errors).
    static func errnoCode(of error: any Error) -> Int32 {
        switch error {
        case let error as POSIXError: error.code.rawValue
        case let error as IOError: error.errnoCode
        case let error as SocketActivationError:
            if case .unreadable(let code) = error { code } else { ENOTSOCK }
        case let error as ControlSocketError:
            if case .alreadyServed = error { EADDRINUSE } else { EADDRNOTAVAIL }
        case let error as TimeWatchError: error.code
        default: EINVAL
        }
    }
}
