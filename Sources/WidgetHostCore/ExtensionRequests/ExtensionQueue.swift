import DequeModule
import Foundation
import WidgetHostProtocol

/// One extension process's work: one request runs at a time, so that a breach is always
/// attributed to the request that was running. Requests queued behind a killed process go to
/// a fresh one.
///
/// An extension that declares `pipelining` (it reads its requests while it answers and
/// answers in order) is also written the reloads queued behind the running request, up to
/// `aheadLimit`, so that reloads due at one instant go out in one write and the host need
/// not wake once per answer to send the next. Each still *runs* only once the one before it
/// is answered: its timeout starts then, and a breach is still the running request's.
struct ExtensionQueue: Sendable {
    struct InFlight: Sendable, Hashable {
        var request: ExtensionRequest
        var sentAt: Date
        var peakFootprint: Int?
    }

    /// The most requests written ahead of their turn to one process.
    static let aheadLimit = 64

    var waiting = Deque<ExtensionRequest>()
    var inFlight: InFlight?
    /// Written to the process behind `inFlight`, in order; each becomes `inFlight` when the
    /// one before it is answered. Only `timeline/get` (nothing a client waits on), so a
    /// request here whose widget is removed is simply answered and dropped.
    var ahead = Deque<ExtensionRequest>()
    /// Set while the process is (as far as the core knows) alive and idle.
    var idleSince: Date?
    /// The core has sent this process work since it was last started, and not stopped it.
    var processAlive = false

    var isIdle: Bool { inFlight == nil && waiting.isEmpty && ahead.isEmpty }
}

