import DequeModule
import Foundation
import WidgetHostProtocol

/// One extension process's work: one request runs at a time, so that a breach is always
/// attributed to the request that was running. Requests queued behind a killed process go to
/// a fresh one.
///
/// An extension that declares `pipelining` (it reads its requests while it answers and
/// answers in order) is also written the entry and timeline requests queued behind the
/// running request (`writesAhead`), up to `aheadLimit`, so that reloads due at one instant go
/// out in one write, a new widget's placeholder and first timeline are one round trip, and
/// the host need not wake once per answer to send the next. Each still *runs* only once the
/// one before it is answered: its timeout starts then, and a breach is still the running
/// request's.
struct ExtensionQueue: Sendable {
    struct InFlight: Sendable, Hashable {
        var request: ExtensionRequest
        var sentAt: Date
        var peakFootprint: Int?
    }

    /// The most requests written ahead of their turn to one process.
    static let aheadLimit = 64
    /// Once `aheadLimit` are ahead, more is written only when no more than this many are
    /// left there, then up to `aheadLimit` again: a steady stream (a fill of thousands of widgets) goes out
    /// `aheadLimit - aheadRefill` requests a write, not one per answer, and the process still
    /// has `aheadRefill` in its stdin while the host reads the answers.
    static let aheadRefill = 32

    var waiting = Deque<ExtensionRequest>()
    var inFlight: InFlight?
    /// Written to the process behind `inFlight`, in order; each becomes `inFlight` when the
    /// one before it is answered. Only `writesAhead` requests (nothing a client waits on, no
    /// side effect), so a request here whose widget is removed is simply answered and dropped.
    var ahead = Deque<ExtensionRequest>()
    /// `ahead` reached `aheadLimit` and has not yet come down to `aheadRefill`.
    var aheadFull = false
    /// Set while the process is (as far as the core knows) alive and idle.
    var idleSince: Date?
    /// The core has sent this process work since it was last started, and not stopped it.
    var processAlive = false

    var isIdle: Bool { inFlight == nil && waiting.isEmpty && ahead.isEmpty }
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
        /// This request is now in flight: write it.
        case sent(ExtensionRequest)
        /// This request, written ahead, is now in flight: it is in the process's stdin already.
        case started(ExtensionRequest)
    }

    /// Takes the next request if the process is free — the first written ahead, else the
    /// first waiting — with its deadline from `limits`, counted from now.
    mutating func dispatchNext(at now: Date, limits: ExtensionLimits, idleTimeout: TimeInterval) -> Dispatch {
        guard inFlight == nil else { return .busy }
        let written = !ahead.isEmpty
        guard var request = written ? ahead.popFirst() : waiting.popFirst() else {
            guard processAlive else { return .idle(stopAt: nil) }
            let since = idleSince ?? now
            idleSince = since
            return .idle(stopAt: since + idleTimeout)
        }
        request.deadline = now + limits.timeout(for: request.call.method)
        inFlight = InFlight(request: request, sentAt: now, peakFootprint: nil)
        idleSince = nil
        processAlive = true
        return written ? .started(request) : .sent(request)
    }

    /// Requests that may be written ahead: `placeholder/get`, `snapshot/get` and
    /// `timeline/get` ask the provider for entries and change nothing in the extension, no
    /// client waits on their answer (a snapshot's arrives as a notice), and the answer for a
    /// removed widget is dropped. Not `intent/perform` (its side effects must not run for a
    /// widget removed meanwhile), nor what a client waits on (`intent/options`,
    /// `control/value`: a removed widget's are answered at once), nor `activity/render` (no
    /// widget's; it stays in line as before).
    static func writesAhead(_ call: ExtensionRequest.Call) -> Bool {
        switch call {
        case .placeholder, .snapshot, .timeline: true
        case .perform, .options, .controlValue, .activityRender: false
        }
    }

    /// Moves the requests waiting behind the one in flight that may go ahead (`writesAhead`)
    /// to `ahead`, in order, up to `aheadLimit` (after reaching it, only once no more than
    /// `aheadRefill` are left), and returns them to be written; the first request that may
    /// not stops it (the queue's order is the process's).
    mutating func takeAhead(at now: Date, limits: ExtensionLimits) -> [ExtensionRequest] {
        guard inFlight != nil else { return [] }
        if ahead.count <= Self.aheadRefill { aheadFull = false }
        guard !aheadFull else { return [] }
        var taken: [ExtensionRequest] = []
        while ahead.count < Self.aheadLimit, let next = waiting.first, Self.writesAhead(next.call) {
            var request = waiting.removeFirst()
            // Its timeout starts when it runs; until then this is what it would be at the earliest.
            request.deadline = now + limits.timeout(for: request.call.method)
            ahead.append(request)
            taken.append(request)
        }
        if ahead.count == Self.aheadLimit { aheadFull = true }
        return taken
    }

    /// The process died with `ahead` in its stdin: those `keep` accepts go back to the front of
    /// `waiting`, in order, for a fresh process; the others are returned.
    mutating func requeueAhead(keeping keep: (ExtensionRequest) -> Bool) -> [ExtensionRequest] {
        var dropped: [ExtensionRequest] = []
        aheadFull = false
        while let request = ahead.popLast() {
            if keep(request) { waiting.prepend(request) } else { dropped.append(request) }
        }
        return dropped
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
