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
        guard let index = records.index(forKey: id) else {
            preconditionFailure("requestReload for unknown widget \(id)")
        }
        let exemption = requested ?? (configuration.budget.enforce ? nil : .budgetNotEnforced)
        // In place: a copy of the record out of `records` and back would copy its timeline and lists.
        let merged = records.values[index].pending != nil
        if merged {
            records.values[index].pending!.coalesce(cause: cause, exemption: exemption, at: now)
        } else {
            records.values[index].pending = PendingReload(requestedAt: now, cause: cause, exemption: exemption)
        }
        step.changed.insert(id)
        let budgeted = records.values[index].pending?.isBudgeted ?? true
        let attempt = tryStart(id, at: now)

        guard let record = records[id] else { preconditionFailure("requestReload: widget \(id) vanished") }
        var outcome = WidgetReloadOutcome(id: id.rawValue, kind: record.info.kind, outcome: .started, budgeted: budgeted)
        if case .deferred(let until, let reason) = attempt {
            outcome.outcome = merged ? .coalesced : .deferred
            outcome.until = until
            outcome.reason = reason
            if merged {
                emit(.reloadCoalesced(record.noticeWidget, at: now, budgeted: budgeted, until: until, reason: reason))
            }
        }
        outcome.budget = budgetUsage(of: record, at: now)
        return outcome
    }

    /// Starts the pending reload if every gate allows it now; otherwise records why not and until when.
    @discardableResult
    mutating func tryStart(_ id: WidgetID, at now: Date) -> StartAttempt? {
        guard let index = records.index(forKey: id) else { return nil }
        return tryStart(id, index: index, at: now)
    }

    // The reload's steps below take the record's index in `records` as well as its id: a
    // reload's end, for one, announces, starts and reschedules the same widget, and a
    // lookup each costs more than the rest of some of those steps. No step in between
    // adds or removes a record, so the index stays valid.

    @discardableResult
    private mutating func tryStart(_ id: WidgetID, index: Int, at now: Date) -> StartAttempt? {
        guard var pending = records.values[index].pending else { return nil }
        let decision: (until: Date?, reason: DeferralReason)
        if records.values[index].running != nil {
            decision = (nil, .reloadInProgress)
        } else if catalog.descriptor(of: records.values[index].info.extension) == nil {
            decision = (nil, .extensionUnavailable)
        } else {
            let configuration = configuration
            let gates = readRecord(at: index) { $0.gates(for: pending, configuration: configuration, at: now) }
            guard let reason = gates.reason else {
                start(id, index: index, at: now)
                return .started
            }
            decision = (gates.earliest, reason)
        }

        if pending.deferredUntil != decision.until || pending.deferredBy != decision.reason {
            pending.deferredUntil = decision.until
            pending.deferredBy = decision.reason
            records.values[index].pending = pending
            step.changed.insert(id)
            emit(
                .reloadDeferred(
                    records.values[index].noticeWidget, at: now, budgeted: pending.isBudgeted,
                    requestedAt: pending.requestedAt, until: decision.until, reason: decision.reason))
        }
        reschedule(id, index: index, at: now)
        return .deferred(until: decision.until, reason: decision.reason)
    }

    /// Charges the reload (if budgeted) and queues `timeline/get` on the widget's extension.
    private mutating func start(_ id: WidgetID, index: Int, at now: Date) {
        guard let pending = records.values[index].pending else { return }
        let budgeted = pending.isBudgeted
        if budgeted {
            SlidingWindowBudget.prune(&records.values[index].ledger, window: configuration.budget.window, at: now)
            records.values[index].ledger.append(now)
        }
        records.values[index].running = RunningReload(
            startedAt: now, requestedAt: pending.requestedAt, budgeted: budgeted, exemption: pending.exemption,
            cause: pending.cause)
        records.values[index].pending = nil
        step.changed.insert(id)

        let info = records.values[index].info
        emit(
            .reloadStarted(
                records.values[index].noticeWidget, at: now, charge: pending.charge, requestedAt: pending.requestedAt))

        let params = TimelineParams(
            kind: info.kind, family: info.family, widgetId: id.rawValue, now: now,
            environment: requestEnvironment, configuration: info.configuration)
        enqueue(.timeline(params), for: id, on: info.extension, at: now)
        reschedule(id, index: index, at: now)
    }

    enum ReloadEnd {
        case received(TimelinePayload, byteCount: Int)
        case failed(ReloadResultKind, detail: String)
    }

    /// A reload's `timeline/get` ended: accept or reject the timeline, update backoff, and
    /// run whatever is waiting (a follow-up request, or a retry if the widget is still due).
    mutating func finishReload(_ id: WidgetID, _ end: ReloadEnd, peakFootprint: Int?, at now: Date) {
        guard let index = records.index(forKey: id), let running = records.values[index].running else { return }
        var (outcome, notes) = records.values[index].endReload(
            running, end, peakFootprint: peakFootprint, configuration: configuration, at: now)
        step.changed.insert(id)

        emit(
            .reloadFinished(
                records.values[index].noticeWidget, at: now, budgeted: running.budgeted, result: outcome.result,
                durationMs: outcome.durationMs, footprintBytes: peakFootprint, detail: outcome.detail))
        let backoff = records.values[index].backoff
        if outcome.result != .success, let until = backoff.until {
            notes.append(
                .init(
                    code: "backoff", severity: .warning,
                    message: "after \(backoff.consecutiveFailures) failure(s) in a row, "
                        + "no reload before \(RFC3339.format(until))"))
        }
        for note in notes { addDiagnostic(note, to: id, at: now) }

        announceEntryIfChanged(id, index: index, at: now)
        if records.values[index].pending != nil {
            tryStart(id, index: index, at: now)
        } else {
            requestDueReload(id, index: index, at: now)
        }
        reschedule(id, index: index, at: now)
    }

    /// If the widget's policy has fallen due (or it has no timeline at all), makes that reload pending.
    mutating func requestDueReload(_ id: WidgetID, at now: Date) {
        guard let index = records.index(forKey: id) else { return }
        requestDueReload(id, index: index, at: now)
    }

    private mutating func requestDueReload(_ id: WidgetID, index: Int, at now: Date) {
        guard records.values[index].pending == nil,
            records.values[index].running == nil,
            let due = records.values[index].policyDue(rules: configuration.policy), due <= now
        else { return }
        let failedLast = records.values[index].lastOutcome.map { $0.result != .success } ?? false
        let exemption: Exemption? = configuration.budget.enforce ? nil : .budgetNotEnforced
        let cause: ReloadCause = failedLast || records.values[index].timeline == nil ? .retry : .policy
        records.values[index].pending = PendingReload(requestedAt: due, cause: cause, exemption: exemption)
        step.changed.insert(id)
        tryStart(id, index: index, at: now)
    }

    /// A widget's deadline came: start what may start, request what fell due, announce entry changes.
    mutating func advance(_ id: WidgetID, at now: Date) {
        guard let index = records.index(forKey: id) else { return }
        if records.values[index].pending != nil {
            if records.values[index].running == nil { tryStart(id, index: index, at: now) }
        } else {
            requestDueReload(id, index: index, at: now)
        }
        announceEntryIfChanged(id, index: index, at: now)
        reschedule(id, index: index, at: now)
    }

    /// The widget's next deadline: a deferred reload's end, the policy's due time, or the
    /// next entry change, whichever is first.
    mutating func reschedule(_ id: WidgetID, at now: Date) {
        guard let index = records.index(forKey: id) else {
            deadlines.schedule(.widget(id), at: nil)
            return
        }
        reschedule(id, index: index, at: now)
    }

    private mutating func reschedule(_ id: WidgetID, index: Int, at now: Date) {
        deadlines.schedule(.widget(id), at: records.values[index].nextDeadline(policy: configuration.policy, at: now))
    }

    mutating func announceEntryIfChanged(_ id: WidgetID, at now: Date) {
        guard let index = records.index(forKey: id) else { return }
        announceEntryIfChanged(id, index: index, at: now)
    }

    private mutating func announceEntryIfChanged(_ id: WidgetID, index: Int, at now: Date) {
        guard let change = records.values[index].showCurrentEntry(at: now) else { return }
        step.changed.insert(id)
        // A new timeline that keeps showing the previous entry changes the source, not what is shown.
        guard change.entryChanged else { return }
        emit(
            .entryChanged(
                records.values[index].noticeWidget, at: now, entry: change.current.entry, source: change.current.source))
    }

    mutating func addDiagnostic(_ note: TimelineValidation.Note, to id: WidgetID, at now: Date) {
        guard let index = records.index(forKey: id) else { return }
        let diagnostic = Diagnostic(at: now, code: note.code, severity: note.severity, message: note.message)
        let kept = configuration.diagnosticsKept
        records.values[index].diagnostics.append(diagnostic)
        if records.values[index].diagnostics.count > kept {
            records.values[index].diagnostics.removeFirst(records.values[index].diagnostics.count - kept)
        }
        step.changed.insert(id)
        emit(.diagnostic(records.values[index].noticeWidget, diagnostic))
    }

    mutating func emit(_ notice: HostNotice) {
        step.effects.append(.notice(notice))
    }

    /// Reads a record where it lies: `records.values[index].f()` copies the whole record out
    /// of the dictionary first when `f` is not inlined (timeline, ledger and diagnostics
    /// retained and released again); an `inout` access does not.
    mutating func readRecord<R>(at index: Int, _ read: (inout WidgetRecord) -> R) -> R {
        read(&records.values[index])
    }
}

/// The parts of a reload that change one record, applied in place (`records.values[index]`):
/// copying a record out of `records` and back copies its timeline, ledger and diagnostics.
extension WidgetRecord {
    func gates(for pending: PendingReload, configuration: HostConfiguration, at now: Date) -> Gates.Decision {
        Gates.decide(
            budgeted: pending.isBudgeted, backoff: backoff, ledger: ledger,
            budgetLimit: dailyBudget(configuration, at: now).limit, rules: configuration, at: now)
    }

    /// Accepts or rejects the timeline, records the outcome and backoff; returns the outcome
    /// and the diagnostics to add.
    fileprivate mutating func endReload(
        _ running: RunningReload, _ end: WidgetHost.ReloadEnd, peakFootprint: Int?, configuration: HostConfiguration,
        at now: Date
    ) -> (LastOutcome, [TimelineValidation.Note]) {
        self.running = nil
        // The reload an intent asked for has landed (or failed): the widget shows its entry again.
        if let ended = interaction?.endedAt, running.startedAt >= ended { interaction = nil }
        var result = ReloadResultKind.success
        var detail: String?
        var notes: [TimelineValidation.Note] = []
        switch end {
        case .received(let payload, let byteCount):
            switch TimelineValidation.validate(payload, byteCount: byteCount, limits: configuration.limits) {
            case .accepted(let entries, let validationNotes):
                // The entry shown until now stays until the new timeline's first entry is due.
                switch currentSource(at: now) {
                case (.timeline, let index?): previousEntry = timeline!.entries[index]
                case (.previousTimeline, _): break
                default: previousEntry = nil
                }
                timeline = AcceptedTimeline(
                    entries: entries, policy: payload.policy, receivedAt: now, reloadStartedAt: running.startedAt)
                backoff.recordSuccess()
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
            backoff.recordFailure(at: now, rules: configuration.backoff)
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
        lastOutcome = outcome
        return (outcome, notes)
    }

    /// The widget's next deadline: a deferred reload's end, the policy's due time, or the
    /// next entry change, whichever is first.
    func nextDeadline(policy: PolicyRules, at now: Date) -> Date? {
        var next: Date?
        func consider(_ date: Date?) {
            guard let date else { return }
            next = min(next ?? date, date)
        }
        if running == nil {
            if let pending {
                consider(pending.deferredUntil)
            } else {
                consider(policyDue(rules: policy))
            }
        }
        if let timeline {
            consider(CurrentEntryRule.nextChange(after: now, entries: timeline.entries))
        }
        return next
    }

    /// Records the entry shown at `now` if it is not the one last announced; nil when nothing changed.
    fileprivate mutating func showCurrentEntry(at now: Date) -> (current: CurrentEntry, entryChanged: Bool)? {
        // Compared where the entries lie: building the `CurrentEntry` first would copy the entry
        // (and its view) on every call, and on most calls nothing changed. Same rule as
        // `CurrentEntryRule.entry`.
        let (source, index) = currentSource(at: now)
        let entryChanged: Bool =
            switch source {
            case .timeline: shown?.entry.map { timeline!.entries[index!] != $0 } ?? true
            case .previousTimeline: shown?.entry.map { previousEntry! != $0 } ?? true
            case .placeholder: shown?.entry.map { placeholder! != $0 } ?? true
            case .none: shown?.entry != nil
            }
        guard entryChanged || source != shown?.source else { return nil }
        let current = currentEntry(at: now)
        shown = current
        return (current, entryChanged)
    }

    /// Where the entry shown at `now` comes from, and its index when from the timeline
    /// (`CurrentEntryRule.entry` without copying the entry).
    fileprivate func currentSource(at now: Date) -> (EntrySource, index: Int?) {
        if let entries = timeline?.entries, let index = CurrentEntryRule.lastIndex(atOrBefore: now, in: entries) {
            return (.timeline, index)
        }
        if previousEntry != nil { return (.previousTimeline, nil) }
        if placeholder != nil { return (.placeholder, nil) }
        return (EntrySource.none, nil)
    }
}
