import Foundation
import WidgetHostProtocol

/// Requests to extension processes: one running at a time per extension (more written ahead
/// to one that declared `pipelining`), each with its deadline, footprint checked against the
/// limit, killed (like jetsam) on a breach.
extension WidgetHost {
    @discardableResult
    mutating func enqueue(_ call: ExtensionRequest.Call, for widget: WidgetID?, on ext: String, at now: Date) -> RequestID {
        let id = RequestID(nextRequestNumber)
        nextRequestNumber += 1
        let request = ExtensionRequest(id: id, extension: ext, widget: widget, call: call, deadline: now)
        queues[ext, default: ExtensionQueue()].waiting.append(request)
        requestOwners[id] = ext
        dispatchNext(on: ext, at: now)
        return id
    }

    /// Sends the next queued request if the extension is free (or starts the one written
    /// ahead, already in its stdin); an extension left with nothing to do is stopped after the
    /// idle timeout. Then writes what may go ahead to a pipelining extension.
    mutating func dispatchNext(on ext: String, at now: Date) {
        // In place (`queues.values[index]`): a copy would copy every waiting request
        // (quadratic when thousands of widgets wait on one extension).
        guard let index = queues.index(forKey: ext) else { return }
        switch queues.values[index].dispatchNext(
            at: now, limits: configuration.limits, idleTimeout: configuration.extensionLifecycle.idleTimeout)
        {
        case .busy:
            break
        case .idle(let stopAt):
            deadlines.schedule(.extension(ext), at: stopAt)
            return
        case .sent(let request):
            step.effects.append(.send(request))
            deadlines.schedule(.extension(ext), at: request.deadline)
        case .started(let request):
            // Written ahead: it is in the process's stdin already and runs from now.
            deadlines.schedule(.extension(ext), at: request.deadline)
        }
        // An extension that declared `pipelining` is written the entry and timeline requests
        // waiting behind the running request, in order (`ExtensionQueue.takeAhead`).
        guard catalog.descriptor(of: ext)?.pipelining == true else { return }
        for request in queues.values[index].takeAhead(at: now, limits: configuration.limits) {
            step.effects.append(.send(request))
        }
    }

    func inFlight(_ id: RequestID) -> ExtensionQueue.InFlight? {
        guard let ext = requestOwners[id], let flight = queues[ext]?.inFlight, flight.request.id == id else {
            return nil
        }
        return flight
    }

    /// The request is no longer running; the extension is free for the next one.
    private mutating func takeInFlight(_ id: RequestID) -> ExtensionQueue.InFlight? {
        guard let ext = requestOwners[id], let index = queues.index(forKey: ext),
            let flight = queues.values[index].takeInFlight(id)
        else { return nil }
        requestOwners[id] = nil
        return flight
    }

    mutating func extensionReplied(_ id: RequestID, _ reply: ExtensionReply, footprintBytes: Int?, at now: Date) {
        // A reply for a request that is no longer running (it timed out, or the widget is gone) is dropped.
        if let footprintBytes {
            guard let ext = requestOwners[id], let index = queues.index(forKey: ext),
                queues.values[index].sampleFootprint(id, bytes: footprintBytes)
            else { return }
            if let failure = configuration.limits.verdict(onFootprint: footprintBytes) {
                failInFlight(id, failure, at: now)
                return
            }
        }
        guard let flight = takeInFlight(id) else { return }
        let request = flight.request
        dispatchNext(on: request.extension, at: now)

        // The common case first, without the tuple below (which copies the call and the reply).
        if case .timeline(let payload, let byteCount) = reply, case .timeline = request.call {
            guard let widget = request.widget else { return }
            finishReload(widget, .received(payload, byteCount: byteCount), peakFootprint: flight.peakFootprint, at: now)
            return
        }
        switch (request.call, reply) {
        case (.timeline, .timeline(let payload, let byteCount)):
            guard let widget = request.widget else { return }
            finishReload(widget, .received(payload, byteCount: byteCount), peakFootprint: flight.peakFootprint, at: now)
        case (.perform, .performed(let result)):
            intentEnded(request, result.error == nil ? .succeeded(result) : .failed(.failed, result.error ?? ""),
                sentAt: flight.sentAt, at: now)
        case (.options, .options(let result)):
            optionsAnswered(request, .answered(result), at: now)
        case (.controlValue, .controlValue(let result)):
            controlAnswered(request, .answered(result), at: now)
        case (.activityRender, .activityViews(let result, let byteCount)):
            activityViewsAnswered(request, .answered((result, byteCount)), at: now)
        case (.placeholder, .entry(let reply)):
            guard let widget = request.widget, var record = records[widget] else { return }
            let (entry, notes) = ViewValidation.validate(reply, limits: configuration.limits)
            record.placeholder = entry
            records[widget] = record
            step.changed.insert(widget)
            for note in notes { addDiagnostic(note, to: widget, at: now) }
            announceEntryIfChanged(widget, at: now)
        case (.snapshot, .entry(let reply)):
            guard let widget = request.widget, let record = records[widget] else { return }
            let (entry, notes) = ViewValidation.validate(reply, limits: configuration.limits)
            for note in notes { addDiagnostic(note, to: widget, at: now) }
            emit(.snapshotReceived(record.noticeWidget, at: now, entry: entry))
        default:
            // The shell decodes by method, so this is a shell bug rather than an extension's.
            failed(request, .protocolError("reply of the wrong shape for \(request.call.method.rawValue)"),
                peakFootprint: flight.peakFootprint, sentAt: flight.sentAt, at: now)
        }
    }

    mutating func footprintSampled(_ id: RequestID, bytes: Int, at now: Date) {
        guard let ext = requestOwners[id], let index = queues.index(forKey: ext),
            queues.values[index].sampleFootprint(id, bytes: bytes)
        else { return }
        if let failure = configuration.limits.verdict(onFootprint: bytes) {
            failInFlight(id, failure, at: now)
        }
    }

    /// The running request failed: kill the process (whatever is queued behind it goes to a
    /// fresh one) and let the widget's reload end with the failure.
    mutating func failInFlight(_ id: RequestID, _ failure: ExtensionFailure, at now: Date) {
        guard let flight = takeInFlight(id) else { return }
        let ext = flight.request.extension
        let (kind, detail) = describe(failure, of: flight.request.call.method, limits: configuration.limits)
        queues[ext]?.processAlive = false
        queues[ext]?.idleSince = nil
        // What was written ahead dies with the process: it goes to a fresh one, first in line
        // (a removed widget's reload no more).
        if let index = queues.index(forKey: ext) {
            let records = records
            for dropped in queues.values[index].requeueAhead(keeping: { $0.widget.map { records[$0] != nil } ?? true }) {
                requestOwners[dropped.id] = nil
            }
        }
        step.effects.append(.kill(extension: ext, reason: kind))
        emit(
            .extensionKilled(
                extension: ext, widgetId: flight.request.widget?.rawValue, at: now, result: kind,
                durationMs: (now.timeIntervalSince(flight.sentAt) * 1000).rounded(), footprintBytes: flight.peakFootprint,
                detail: detail))
        dispatchNext(on: ext, at: now)
        failed(flight.request, failure, peakFootprint: flight.peakFootprint, sentAt: flight.sentAt, at: now)
    }

    private mutating func failed(
        _ request: ExtensionRequest, _ failure: ExtensionFailure, peakFootprint: Int?, sentAt: Date, at now: Date
    ) {
        let (kind, detail) = describe(failure, of: request.call.method, limits: configuration.limits)
        switch request.call {
        case .timeline:
            guard let widget = request.widget else { return }
            finishReload(widget, .failed(kind, detail: detail), peakFootprint: peakFootprint, at: now)
        case .placeholder, .snapshot:
            guard let widget = request.widget else { return }
            addDiagnostic(
                .init(code: kind.rawValue, severity: .error, message: "\(request.call.method.rawValue): \(detail)"),
                to: widget, at: now)
        case .perform:
            intentEnded(request, .failed(IntentOutcome(kind), detail), sentAt: sentAt, at: now)
        case .options:
            optionsAnswered(request, .failed(detail), at: now)
        case .controlValue:
            controlAnswered(request, .failed(detail), at: now)
        case .activityRender:
            activityViewsAnswered(request, .failed(detail), at: now)
        }
    }

    /// An extension's deadline: the running request's timeout, or the end of its idle time.
    mutating func extensionDeadline(_ ext: String, at now: Date) {
        guard var queue = queues[ext] else { return }
        if let flight = queue.inFlight {
            let method = flight.request.call.method
            if let failure = configuration.limits.verdict(on: method, sentAt: flight.sentAt, at: now, footprintBytes: nil) {
                failInFlight(flight.request.id, failure, at: now)
            } else {
                deadlines.schedule(.extension(ext), at: flight.request.deadline)
            }
            return
        }
        guard let idleSince = queue.idleSince, queue.processAlive else { return }
        let stopAt = idleSince + configuration.extensionLifecycle.idleTimeout
        guard stopAt <= now else {
            deadlines.schedule(.extension(ext), at: stopAt)
            return
        }
        queue.processAlive = false
        queue.idleSince = nil
        queues[ext] = queue
        step.effects.append(.terminate(extension: ext))
        emit(.extensionStopped(extension: ext, at: now, detail: "idle for \(Int(configuration.extensionLifecycle.idleTimeout))s"))
    }

    /// Drops requests still queued for a widget that is gone.
    mutating func dropQueuedRequests(for widget: WidgetID) {
        for ext in queues.keys.sorted() {
            guard var queue = queues[ext] else { continue }
            let dropped = queue.waiting.filter { $0.widget == widget }
            guard !dropped.isEmpty else { continue }
            queue.waiting.removeAll { $0.widget == widget }
            queues[ext] = queue
            for request in dropped {
                requestOwners[request.id] = nil
                // A tap waiting behind other work gets its answer: the widget is gone.
                if clientWaits.removeValue(forKey: request.id) != nil { answer(request.id, .refused(.unknownWidget(widget))) }
            }
        }
    }
}

/// The outcome and its sentence; a timeout names the request and the one limit it broke.
func describe(_ failure: ExtensionFailure, of method: ExtensionMethod, limits: ExtensionLimits) -> (ReloadResultKind, String) {
    switch failure {
    case .timedOut(let elapsed):
        let key = switch method {
        case .placeholder: "placeholder_timeout"
        case .intentPerform, .intentOptions, .controlValue: "intent_timeout"
        case .initialize, .snapshot, .timeline, .activityRender: "timeline_timeout"
        }
        return (
            .timedOut,
            "no reply after \(String(format: "%.2f", elapsed))s to \(method.rawValue) (limits.\(key) = "
                + "\(limits.timeout(for: method))s); its process was killed"
        )
    case .memoryLimitExceeded(let bytes):
        return (
            .memoryLimitExceeded,
            "footprint \(mebibytes(bytes)) exceeded limits.memory = \(mebibytes(limits.memory)); its process was killed"
        )
    case .crashed(let detail): return (.crashed, "the extension crashed: \(detail)")
    case .protocolError(let detail): return (.protocolError, "protocol error: \(detail)")
    }
}

func mebibytes(_ bytes: Int) -> String {
    String(format: "%.1f MiB", Double(bytes) / 1_048_576)
}
