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

/// The queue's own bookkeeping, changed in place through `queues.values[index]`: reading
/// `queues.values[index].inFlight` copies the whole queue first (every waiting request and
/// the one in flight), and the host does this on every request and reply.
extension ExtensionQueue {
    enum Dispatch {
        /// A request is running; the next waits for its end.
        case busy
        /// Nothing waits: stop the process at this time (nil: no process to stop).
        case idle(stopAt: Date?)
        /// This request is now in flight.
        case sent(ExtensionRequest)
    }

    /// Takes the next waiting request if the process is free, with its deadline from `limits`.
    mutating func dispatchNext(at now: Date, limits: ExtensionLimits, idleTimeout: TimeInterval) -> Dispatch {
        guard inFlight == nil else { return .busy }
        guard var request = waiting.popFirst() else {
            guard processAlive else { return .idle(stopAt: nil) }
            let since = idleSince ?? now
            idleSince = since
            return .idle(stopAt: since + idleTimeout)
        }
        request.deadline = now + limits.timeout(for: request.call.method)
        inFlight = InFlight(request: request, sentAt: now, peakFootprint: nil)
        idleSince = nil
        processAlive = true
        return .sent(request)
    }

    /// The request in flight if it is `id`, taken out: the process is free for the next one.
    mutating func takeInFlight(_ id: RequestID) -> InFlight? {
        guard inFlight?.request.id == id else { return nil }
        let flight = inFlight
        inFlight = nil
        return flight
    }

    /// Raises the peak footprint of the request in flight; false when `id` is not in flight.
    mutating func sampleFootprint(_ id: RequestID, bytes: Int) -> Bool {
        guard inFlight?.request.id == id else { return false }
        inFlight!.peakFootprint = max(inFlight!.peakFootprint ?? 0, bytes)
        return true
    }
}
