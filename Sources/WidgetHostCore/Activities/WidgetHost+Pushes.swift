import Foundation
import WidgetHostProtocol

/// Simulated pushes: APNs for Live Activities (update, end, push-to-start) with their
/// budgets, and WidgetKit pushes that reload widgets against the widget budget.
extension WidgetHost {
    mutating func receivePush(_ params: ActivityPushParams, at now: Date) -> ActivityReply {
        let rules = configuration.activities
        guard !params.token.isEmpty else {
            return refuse(
                ActivityRefusal("MissingDeviceToken", "the push names no token; `widgethost push tokens` lists them"), app: "",
                source: pushSource(params.priority), at: now)
        }
        let push: ActivityPush
        switch ActivityPush.parse(params, maxBytes: rules.maxPayloadBytes) {
        case .failure(let refusal): return refuse(refusal, app: "", source: pushSource(params.priority), at: now)
        case .success(let parsed): push = parsed
        }
        let source = pushSource(params.priority)
        if let record = activities.record(withToken: params.token) {
            return pushToActivity(record, push, source: source, at: now)
        }
        if let target = pushToStartTarget(token: params.token, attributesType: push.attributesType) {
            guard push.event == .start else {
                return refuse(
                    ActivityRefusal(
                        "BadPayload", "this is the push-to-start token of \(target.app)'s \(target.type); send event \"start\" to it"),
                    app: target.app, attributesType: target.type, source: source, at: now)
            }
            return pushToStart(app: target.app, push, source: source, at: now)
        }
        return refuse(
            ActivityRefusal(
                "BadDeviceToken",
                "no Live Activity or push-to-start token \(params.token.prefix(64)); `widgethost push tokens` lists the tokens"),
            app: "", source: source, at: now)
    }

    private func pushSource(_ priority: Int) -> ActivityUpdateSource { priority == 10 ? .push10 : .push5 }

    private mutating func pushToActivity(
        _ record: ActivityRecord, _ push: ActivityPush, source: ActivityUpdateSource, at now: Date
    ) -> ActivityReply {
        let rules = configuration.activities
        guard record.state.isOngoing else {
            let refusal = ActivityRefusal(
                "Unregistered",
                "Live Activity \(record.id) is \(record.state.rawValue)\(record.endedAt.map { " (ended at \(RFC3339.format($0)))" } ?? ""); its push token is no longer valid")
            return refuse(refusal, app: record.app, activity: record.id, source: source, at: now)
        }
        guard push.event != .start else {
            return refuse(
                ActivityRefusal("BadPayload", "a start push goes to a push-to-start token, not to activity \(record.id)'s token"),
                app: record.app, activity: record.id, source: source, at: now)
        }
        if let state = push.contentState, let refusal = sizeRefusal(record, state: state) {
            return refuse(refusal, app: record.app, activity: record.id, source: source, at: now)
        }
        let frequent = frequentPushUpdates(app: record.app)
        var budgetAfter: PushBudgetUsage?
        if source == .push10 {
            var ledger = SlidingWindowBudget.pruned(record.pushLedger, window: rules.pushWindow, at: now)
            let limit = PushBudget.limit(frequentUpdates: frequent, rules: rules)
            if let until = PushBudget.throttledUntil(ledger, limit: limit, rules: rules, at: now) {
                let usage = PushBudget.usage(ledger, frequentUpdates: frequent, rules: rules, at: now)
                let raise = frequent ? "" : "; the \(ActivityRules.frequentUpdatesEntitlement) entitlement raises it to \(rules.frequentPushBudget)"
                note(
                    .throttled, record.id, source: source,
                    detail: "priority-10 \(push.event.rawValue) push dropped: \(usage.used) of \(usage.limit) priority-10 pushes in the last \(DurationWords.format(rules.pushWindow)) (activities.push_budget\(frequent ? "_frequent" : "")); a device drops it without a word. Next at \(RFC3339.format(until)); priority 5 is not budgeted\(raise)",
                    budget: usage, until: until, at: now)
                return .push(
                    ActivityPushResult(
                        outcome: .throttled, event: push.event.rawValue, activityId: record.id, until: until,
                        reason: .pushBudgetExhausted, budgeted: true, budget: usage))
            }
            ledger.append(now)
            var charged = activities[record.id]!
            charged.pushLedger = ledger
            activities.records[record.id] = charged
            step.activitiesChanged.insert(record.id)
            budgetAfter = PushBudget.usage(ledger, frequentUpdates: frequent, rules: rules, at: now)
        }
        if let outdated = PushOrdering.outdated(push.timestamp, after: record.contentTimestamp) {
            let detail =
                "\(source == .push10 ? "priority-10" : "priority-5") \(push.event.rawValue) push ignored: \(outdated.description); "
                + "the content stays as it was\(source == .push10 ? " (the push still counted against the budget: APNs delivered it)" : "")"
            note(.ignored, record.id, source: source, detail: detail, budget: budgetAfter, reason: .outdatedTimestamp, at: now)
            return .push(
                ActivityPushResult(
                    outcome: .ignored, event: push.event.rawValue, activityId: record.id, reason: .outdatedTimestamp,
                    budgeted: source == .push10, budget: budgetAfter ?? activityInfo(activities[record.id]!, at: now).pushBudget))
        }
        if let timestamp = push.timestamp { stampContent(record.id, timestamp) }
        let content = ActivityContentPayload(
            state: push.contentState ?? record.content.state, staleDate: push.staleDate,
            relevanceScore: push.relevanceScore ?? record.content.relevanceScore)
        switch push.event {
        case .update:
            applyUpdate(record.id, content: content, alert: push.alert, source: source, budget: budgetAfter, at: now)
        case .end:
            let policy: ActivityDismissalPolicyPayload = push.dismissalDate.map { .after($0) } ?? .default
            endActivity(
                record.id, content: push.contentState == nil ? nil : content, policy: policy, source: source, endedAt: now,
                budget: budgetAfter, at: now)
        case .start: break
        }
        let info = activityInfo(activities[record.id]!, at: now)
        return .push(
            ActivityPushResult(
                outcome: .delivered, event: push.event.rawValue, activityId: record.id, budgeted: source == .push10,
                budget: budgetAfter ?? info.pushBudget))
    }

    private mutating func pushToStart(
        app: String, _ push: ActivityPush, source: ActivityUpdateSource, at now: Date
    ) -> ActivityReply {
        let rules = configuration.activities
        let type = push.attributesType ?? ""
        let attributes = push.attributes ?? .object([:])
        let state = push.contentState ?? .object([:])
        if let refusal = admissionRefusal(app: app, attributes: attributes, state: state, rules: rules) {
            return refuse(refusal, app: app, attributesType: type, source: source, at: now)
        }
        var ledger = SlidingWindowBudget.pruned(
            activities.host.pushToStartLedgers[app] ?? [], window: rules.pushWindow, at: now)
        let usage = PushBudgetUsage(used: ledger.count, limit: rules.pushToStartBudget, frequentUpdates: false)
        if let until = PushBudget.throttledUntil(ledger, limit: rules.pushToStartBudget, rules: rules, at: now) {
            let detail =
                "push-to-start dropped: \(usage.used) of \(usage.limit) push-to-start pushes for \(app) in the last \(DurationWords.format(rules.pushWindow)) (activities.push_to_start_budget); next at \(RFC3339.format(until))"
            emit(
                .activity(
                    ActivityNotice(
                        event: .throttled, at: now, activityId: nil, app: app, attributesType: type, source: source,
                        state: nil, detail: detail, budget: usage, until: until)))
            return .push(
                ActivityPushResult(
                    outcome: .throttled, event: "start", activityId: nil, until: until,
                    reason: .pushToStartBudgetExhausted, budgeted: true, budget: usage))
        }
        ledger.append(now)
        activities.host.pushToStartLedgers[app] = ledger
        step.activityHostChanged = true
        let content = ActivityContentPayload(state: state, staleDate: push.staleDate, relevanceScore: push.relevanceScore)
        let record = startActivity(
            app: app, attributesType: type, attributes: attributes, content: content, withToken: true, source: source,
            at: now)
        if let alert = push.alert {
            var alerted = activities[record.id]!
            alerted.lastAlert = alert
            activities.records[record.id] = alerted
        }
        if let timestamp = push.timestamp { stampContent(record.id, timestamp) }
        return .push(
            ActivityPushResult(
                outcome: .delivered, event: "start", activityId: record.id, budgeted: true,
                budget: PushBudgetUsage(used: ledger.count, limit: rules.pushToStartBudget, frequentUpdates: false)))
    }

    /// Remembers the latest timestamp applied to the activity (`PushOrdering`).
    private mutating func stampContent(_ id: String, _ timestamp: Date) {
        guard var record = activities[id] else { return }
        record.contentTimestamp = max(record.contentTimestamp ?? timestamp, timestamp)
        activities.records[id] = record
        step.activitiesChanged.insert(id)
    }

    /// The (app, attributes type) whose push-to-start token this is: every app the catalog or
    /// an activity names is tried with the push's attributes type.
    func pushToStartTarget(token: String, attributesType: String?) -> (app: String, type: String)? {
        var candidates = Set(catalog.extensions.map(\.app))
        var types = Set(attributesType.map { [$0] } ?? [])
        for record in activities.all {
            candidates.insert(record.app)
            types.insert(record.attributesType)
        }
        for app in candidates.sorted() {
            for type in types.sorted() where PushTokens.pushToStart(app: app, attributesType: type) == token {
                return (app, type)
            }
        }
        return nil
    }

    // MARK: - WidgetKit pushes

    mutating func receiveWidgetPush(_ params: WidgetPushParams, at now: Date) -> ActivityReply {
        if let refusal = WidgetPushPayload.refusal(params) { return refuse(refusal, app: "", source: .push10, at: now) }
        for ext in catalog.extensions {
            for widget in ext.widgets where PushTokens.widget(extension: ext.id, kind: widget.kind) == params.token {
                // A WidgetKit push asks the host to reload the kind's timelines; each reload is
                // budgeted like a background `reloadTimelines(ofKind:)` (Apple).
                let reply = reloadTimelines(ReloadRequest(.kind(widget.kind, app: ext.app), origin: .background), at: now)
                guard case .reload(let result) = reply else {
                    if case .refused(let error) = reply {
                        return refuse(ActivityRefusal("BadDeviceToken", error.description), app: ext.app, at: now)
                    }
                    return .refused(ActivityRefusal("invalid", "the widget push could not be delivered"))
                }
                return .widgetPush(WidgetPushResult(kind: widget.kind, extension: ext.id, reload: result))
            }
        }
        return refuse(
            ActivityRefusal(
                "BadDeviceToken", "no widget push token \(params.token.prefix(64)); `widgethost push tokens` lists them"),
            app: "", source: .push10, at: now)
    }

    /// `push/tokens`: the tokens of ongoing activities, push-to-start tokens of the attribute
    /// types seen, and one WidgetKit push token per widget kind.
    public func pushTokens(app: String?) -> PushTokensResult {
        let records = activities.all.filter { app == nil || $0.app == app }
        let activityTokens = records.filter(\.state.isOngoing).compactMap { record in
            record.pushToken.map {
                PushTokensResult.ActivityToken(
                    activityId: record.id, app: record.app, attributesType: record.attributesType, token: $0)
            }
        }
        var pairs: [String: (String, String)] = [:]
        for record in records { pairs["\(record.app)\u{0}\(record.attributesType)"] = (record.app, record.attributesType) }
        let pushToStart = pairs.keys.sorted().map { key in
            let (app, type) = pairs[key]!
            return PushTokensResult.PushToStartToken(
                app: app, attributesType: type, token: PushTokens.pushToStart(app: app, attributesType: type))
        }
        let widgetTokens = catalog.extensions.filter { app == nil || $0.app == app }.flatMap { ext in
            ext.widgets.map {
                PushTokensResult.WidgetToken(
                    kind: $0.kind, extension: ext.id, app: ext.app, token: PushTokens.widget(extension: ext.id, kind: $0.kind))
            }
        }
        return PushTokensResult(activities: activityTokens, pushToStart: pushToStart, widgets: widgetTokens)
    }
}
