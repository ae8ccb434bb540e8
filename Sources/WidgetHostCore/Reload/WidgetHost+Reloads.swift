import Foundation
import WidgetHostProtocol

/// The life of a reload: requested (or due), gated, started, finished.
extension WidgetHost {
    enum StartAttempt: Equatable {
        case started
        case deferred(until: Date?, reason: DeferralReason)
    }

    /// Asks for a reload of one instance and answers with its outcome.
    mutating func requestReload(
        _ id: WidgetID, cause: ReloadCause, exemption requested: Exemption?, at now: Date
    ) -> WidgetReloadOutcome {
        guard var record = records[id] else { preconditionFailure("requestReload for unknown widget \(id)") }
        let exemption = requested ?? (configuration.budget.enforce ? nil : .budgetNotEnforced)
        let merged = record.pending != nil
        if var pending = record.pending {
            pending.coalesce(cause: cause, exemption: exemption, at: now)
            record.pending = pending
        } else {
            record.pending = PendingReload(requestedAt: now, cause: cause, exemption: exemption)
        }
        records[id] = record
        step.changed.insert(id)
        let budgeted = record.pending?.isBudgeted ?? true
        let attempt = tryStart(id, at: now)

        var outcome = WidgetReloadOutcome(id: id.rawValue, kind: record.info.kind, outcome: .started, budgeted: budgeted)
        if case .deferred(let until, let reason) = attempt {
            outcome.outcome = merged ? .coalesced : .deferred
            outcome.until = until
            outcome.reason = reason
            if merged {
                emit(.reloadCoalesced(record.noticeWidget, at: now, budgeted: budgeted, until: until, reason: reason))
            }
        }
        outcome.budget = records[id].map { budgetUsage(of: $0, at: now) }
        return outcome
    }

    /// Starts the pending reload if every gate allows it now; otherwise records why not and until when.
    @discardableResult
    mutating func tryStart(_ id: WidgetID, at now: Date) -> StartAttempt? {
        guard var record = records[id], var pending = record.pending else { return nil }
        let decision: (until: Date?, reason: DeferralReason)
        if record.running != nil {
            decision = (nil, .reloadInProgress)
        } else if catalog.descriptor(of: record.info.extension) == nil {
            decision = (nil, .extensionUnavailable)
        } else {
            let gates = Gates.decide(
                budgeted: pending.isBudgeted, backoff: record.backoff,
                ledger: record.ledger, budgetLimit: record.dailyBudget(configuration, at: now).limit,
                rules: configuration, at: now)
            guard let reason = gates.reason else {
                start(id, at: now)
                return .started
            }
            decision = (gates.earliest, reason)
        }

        if pending.deferredUntil != decision.until || pending.deferredBy != decision.reason {
            pending.deferredUntil = decision.until
            pending.deferredBy = decision.reason
            record.pending = pending
            records[id] = record
            step.changed.insert(id)
            emit(
                .reloadDeferred(
                    record.noticeWidget, at: now, budgeted: pending.isBudgeted, requestedAt: pending.requestedAt,
                    until: decision.until, reason: decision.reason))
        }
        reschedule(id, at: now)
        return .deferred(until: decision.until, reason: decision.reason)
    }

    /// Charges the reload (if budgeted) and queues `timeline/get` on the widget's extension.
    private mutating func start(_ id: WidgetID, at now: Date) {
        guard var record = records[id], let pending = record.pending else { return }
        let budgeted = pending.isBudgeted
        if budgeted {
            record.ledger = SlidingWindowBudget.pruned(record.ledger, window: configuration.budget.window, at: now)
            record.ledger.append(now)
        }
        record.running = RunningReload(
            startedAt: now, requestedAt: pending.requestedAt, budgeted: budgeted, exemption: pending.exemption,
            cause: pending.cause)
        record.pending = nil
        records[id] = record
        step.changed.insert(id)

        emit(.reloadStarted(record.noticeWidget, at: now, charge: pending.charge, requestedAt: pending.requestedAt))

        let params = TimelineParams(
            kind: record.info.kind, family: record.info.family, widgetId: id.rawValue, now: now,
            environment: requestEnvironment, configuration: record.info.configuration)
        enqueue(.timeline(params), for: id, on: record.info.extension, at: now)
        reschedule(id, at: now)
    }

    enum ReloadEnd {
        case received(TimelinePayload, byteCount: Int)
        case failed(ReloadResultKind, detail: String)
    }

    /// A reload's `timeline/get` ended: accept or reject the timeline, update backoff, and
    /// run whatever is waiting (a follow-up request, or a retry if the widget is still due).
    mutating func finishReload(_ id: WidgetID, _ end: ReloadEnd, peakFootprint: Int?, at now: Date) {
        guard var record = records[id], let running = record.running else { return }
        record.running = nil
        // The reload an intent asked for has landed (or failed): the widget shows its entry again.
        if let ended = record.interaction?.endedAt, running.startedAt >= ended { record.interaction = nil }

        var result = ReloadResultKind.success
        var detail: String?
        var notes: [TimelineValidation.Note] = []
        switch end {
        case .received(let payload, let byteCount):
            switch TimelineValidation.validate(payload, byteCount: byteCount, limits: configuration.limits) {
            case .accepted(let entries, let validationNotes):
                let shownBefore = record.currentEntry(at: now)
                record.previousEntry = shownBefore.source == .placeholder ? nil : shownBefore.entry
                record.timeline = AcceptedTimeline(
                    entries: entries, policy: payload.policy, receivedAt: now, reloadStartedAt: running.startedAt)
                record.backoff.recordSuccess()
                notes = validationNotes
                if let due = ReloadPolicyRule.due(
                    policy: payload.policy, entries: entries, reloadStartedAt: running.startedAt,
                    rules: configuration.policy), due.clamped
                {
                    notes.append(
                        .init(
                            code: "policyTooSoon", severity: .info,
                            message: "the policy \(payload.policy) asks for a reload sooner than "
                                + "min_reload_interval = \(Int(configuration.policy.minReloadInterval))s after the last one; "
                                + "it is due at \(RFC3339.format(due.at))"))
                }
            case .rejected(let note):
                result = .invalidTimeline
                detail = note.message
                notes = [note]
            }
        case .failed(let kind, let failureDetail):
            result = kind
            detail = failureDetail
        }

        if result != .success {
            record.backoff.recordFailure(at: now, rules: configuration.backoff)
            if result != .invalidTimeline {
                notes.append(
                    .init(
                        code: result.rawValue, severity: .error,
                        message: (detail ?? result.rawValue) + "; the previous timeline stays"))
            }
        }
        let outcome = LastOutcome(
            result: result, startedAt: running.startedAt, finishedAt: now, peakFootprintBytes: peakFootprint,
            detail: detail)
        record.lastOutcome = outcome
        records[id] = record
        step.changed.insert(id)

        emit(
            .reloadFinished(
                record.noticeWidget, at: now, budgeted: running.budgeted, result: result,
                durationMs: outcome.durationMs, footprintBytes: peakFootprint, detail: detail))
        if result != .success, let until = record.backoff.until {
            notes.append(
                .init(
                    code: "backoff", severity: .warning,
                    message: "after \(record.backoff.consecutiveFailures) failure(s) in a row, "
                        + "no reload before \(RFC3339.format(until))"))
        }
        for note in notes { addDiagnostic(note, to: id, at: now) }

        announceEntryIfChanged(id, at: now)
        if records[id]?.pending != nil {
            tryStart(id, at: now)
        } else {
            requestDueReload(id, at: now)
        }
        reschedule(id, at: now)
    }

    /// If the widget's policy has fallen due (or it has no timeline at all), makes that reload pending.
    mutating func requestDueReload(_ id: WidgetID, at now: Date) {
        guard var record = records[id], record.pending == nil, record.running == nil,
            let due = record.policyDue(rules: configuration.policy), due <= now
        else { return }
        let failedLast = record.lastOutcome.map { $0.result != .success } ?? false
        let exemption: Exemption? = configuration.budget.enforce ? nil : .budgetNotEnforced
        record.pending = PendingReload(
            requestedAt: due, cause: failedLast || record.timeline == nil ? .retry : .policy, exemption: exemption)
        records[id] = record
        step.changed.insert(id)
        tryStart(id, at: now)
    }

    /// A widget's deadline came: start what may start, request what fell due, announce entry changes.
    mutating func advance(_ id: WidgetID, at now: Date) {
        guard let record = records[id] else { return }
        if record.pending != nil {
            if record.running == nil { tryStart(id, at: now) }
        } else {
            requestDueReload(id, at: now)
        }
        announceEntryIfChanged(id, at: now)
        reschedule(id, at: now)
    }

    /// The widget's next deadline: a deferred reload's end, the policy's due time, or the
    /// next entry change, whichever is first.
    mutating func reschedule(_ id: WidgetID, at now: Date) {
        guard let record = records[id] else {
            deadlines.schedule(.widget(id), at: nil)
            return
        }
        var next: Date?
        func consider(_ date: Date?) {
            guard let date else { return }
            next = min(next ?? date, date)
        }
        if record.running == nil {
            if let pending = record.pending {
                consider(pending.deferredUntil)
            } else {
                consider(record.policyDue(rules: configuration.policy))
            }
        }
        if let timeline = record.timeline {
            consider(CurrentEntryRule.nextChange(after: now, entries: timeline.entries))
        }
        deadlines.schedule(.widget(id), at: next)
    }

    mutating func announceEntryIfChanged(_ id: WidgetID, at now: Date) {
        guard var record = records[id] else { return }
        let current = record.currentEntry(at: now)
        guard current != record.shown else { return }
        let entryChanged = current.entry != record.shown?.entry
        record.shown = current
        records[id] = record
        step.changed.insert(id)
        // A new timeline that keeps showing the previous entry changes the source, not what is shown.
        guard entryChanged else { return }
        emit(.entryChanged(record.noticeWidget, at: now, entry: current.entry, source: current.source))
    }

    mutating func addDiagnostic(_ note: TimelineValidation.Note, to id: WidgetID, at now: Date) {
        guard var record = records[id] else { return }
        let diagnostic = Diagnostic(at: now, code: note.code, severity: note.severity, message: note.message)
        record.diagnostics.append(diagnostic)
        if record.diagnostics.count > configuration.diagnosticsKept {
            record.diagnostics.removeFirst(record.diagnostics.count - configuration.diagnosticsKept)
        }
        records[id] = record
        step.changed.insert(id)
        emit(.diagnostic(record.noticeWidget, diagnostic))
    }

    mutating func emit(_ notice: HostNotice) {
        step.effects.append(.notice(notice))
    }
}
