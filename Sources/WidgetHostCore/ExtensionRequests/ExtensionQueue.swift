import DequeModule
import Foundation
import WidgetHostProtocol

/// One extension process's work: the host sends it one request at a time, so that a breach
/// is always attributed to the request that was running. Requests queued behind a killed
/// process go to a fresh one.
struct ExtensionQueue: Sendable {
    struct InFlight: Sendable, Hashable {
        var request: ExtensionRequest
        var sentAt: Date
        var peakFootprint: Int?
    }

    var waiting = Deque<ExtensionRequest>()
    var inFlight: InFlight?
    /// Set while the process is (as far as the core knows) alive and idle.
    var idleSince: Date?
    /// The core has sent this process work since it was last started, and not stopped it.
    var processAlive = false

    var isIdle: Bool { inFlight == nil && waiting.isEmpty }
}

