import Foundation
import WidgetHostProtocol

/// Live Activities from the app: request, update, end; the host's own transitions (stale,
/// the 8-hour end, dismissal) at their deadlines.
extension WidgetHost {
    mutating func handleActivity(_ command: ActivityCommand, at now: Date) -> ActivityReply {
        switch command {
        case .request(let params): return requestActivity(params, at: now)
        case .update(let params): return updateFromApp(params, at: now)
        case .end(let params): return endFromApp(params, at: now)
        case .push(let params): return receivePush(params, at: now)
        case .widgetPush(let params): return receiveWidgetPush(params, at: now)
        }
    }

    // MARK: - Getters

    /// Whether `app`'s extension has the frequent-updates entitlement.
    public func frequentPushUpdates(app: String) -> Bool {
        catalog.extensions.contains { $0.app == app && $0.frequentPushUpdates }
    }

    public func activityInfo(_ record: ActivityRecord, at now: Date) -> ActivityInfo {
        ActivityInfo(
            id: record.id, app: record.app, attributesType: record.attributesType, attributes: record.attributes,
            content: record.content, state: record.state, startedAt: record.startedAt, updatedAt: record.updatedAt,
            endedAt: record.endedAt, dismissAt: record.dismissAt, pushToken: record.pushToken,
            pushBudget: PushBudget.usage(
                record.pushLedger, frequentUpdates: frequentPushUpdates(app: record.app), rules: configuration.activities,
                at: now),
            lastAlert: record.lastAlert,
            payloadBytes: ActivityPayloadSize.bytes(attributes: record.attributes, state: record.content.state))
    }

    /// `activity/list`: ongoing and ended activities (dismissed ones too with `all`), by id.
    public func activityList(app: String?, all: Bool, at now: Date) -> [ActivityInfo] {
        activities.all.filter { (app == nil || $0.app == app) && (all || $0.state != .dismissed) }
            .map { activityInfo($0, at: now) }
    }

    /// `activity/get`: the activity and its story.
    public func activityDetail(_ id: String, at now: Date) -> Result<ActivityDetailResult, ActivityRefusal> {
        guard let record = activities[id] else { return .failure(.unknownActivity(id)) }
        return .success(
            ActivityDetailResult(
                now: now, activity: activityInfo(record, at: now), history: record.history, views: record.views))
    }

    // MARK: - From the app

    mutating func requestActivity(_ params: ActivityRequestParams, at now: Date) -> ActivityReply {
        let rules = configuration.activities
        guard params.app.isEmpty == false else {
            return refuse(.invalid("app is empty; send the app's bundle identifier (e.g. com.example.pizza)"), app: params.app, at: now)
        }
        guard params.attributesType.isEmpty == false else {
            return refuse(.invalid("attributesType is empty; send the ActivityAttributes type's name"), app: params.app, at: now)
        }
        if let refusal = ActivityInput.objectRefusal(params.attributes, field: "attributes", what: "ActivityAttributes value")
            ?? ActivityInput.contentRefusal(params.content, field: "content")
        {
            return refuse(refusal, app: params.app, attributesType: params.attributesType, at: now)
        }
        if let refusal = admissionRefusal(
            app: params.app, attributes: params.attributes, state: params.content.state, rules: rules)
        {
            return refuse(refusal, app: params.app, attributesType: params.attributesType, at: now)
        }
        let record = startActivity(
            app: params.app, attributesType: params.attributesType, attributes: params.attributes,
            content: params.content, withToken: params.pushType == "token", source: .app, at: now)
        return .activity(activityInfo(record, at: now))
    }

    /// The checks every start passes (Apple): enabled, size, activities at once.
    func admissionRefusal(app: String, attributes: JSONValue, state: JSONValue, rules: ActivityRules) -> ActivityRefusal? {
        guard rules.enabled else { return .denied() }
        let bytes = ActivityPayloadSize.bytes(attributes: attributes, state: state)
        guard bytes <= rules.maxPayloadBytes else { return .attributesTooLarge(bytes, limit: rules.maxPayloadBytes) }
        let ongoing = activities.ongoing(of: app)
        guard ongoing.count < rules.maxPerApp else {
            return .targetMaximumExceeded(app: app, ongoing: ongoing.map(\.id), limit: rules.maxPerApp)
        }
        return nil
    }

    mutating func startActivity(
        app: String, attributesType: String, attributes: JSONValue, content: ActivityContentPayload, withToken: Bool,
        source: ActivityUpdateSource, at now: Date
    ) -> ActivityRecord {
        let id = "a\(activities.host.nextActivityNumber)"
        activities.host.nextActivityNumber += 1
        step.activityHostChanged = true
        var record = ActivityRecord(
            id: id, app: app, attributesType: attributesType, attributes: attributes, content: content, startedAt: now,
            pushToken: withToken ? PushTokens.activity(id: id, app: app, startedAt: now) : nil)
        record.state = isStale(content, at: now) ? .stale : .active
        let ends = ActivityLifetime.forcedEnd(startedAt: now, rules: configuration.activities)
        let detail =
            "started by \(source == .app ? "the app" : "a push-to-start push"); the host ends it at \(RFC3339.format(ends)) (activities.max_active)"
            + (record.pushToken.map { "; push token \($0)" } ?? "")
        activities.records[id] = record
        note(.requested, id, source: source, detail: detail, at: now)
        if record.state == .stale { note(.stale, id, source: .host, detail: staleDetail(content), at: now) }
        scheduleActivityDeadline(id)
        return activities.records[id]!
    }

    mutating func updateFromApp(_ params: ActivityUpdateParams, at now: Date) -> ActivityReply {
        if let refusal = ActivityInput.contentRefusal(params.content, field: "content") {
            return refuse(refusal, app: params.app ?? "", activity: params.id, at: now)
        }
        switch ongoingRecord(params.id, caller: params.app) {
        case .failure(let refusal): return refuse(refusal, app: params.app ?? "", activity: params.id, at: now)
        case .success(let record):
            if let refusal = sizeRefusal(record, state: params.content.state) {
                return refuse(refusal, app: record.app, activity: record.id, at: now)
            }
            applyUpdate(record.id, content: params.content, alert: params.alert, source: .app, at: now)
            return .activity(activityInfo(activities[record.id]!, at: now))
        }
    }

    mutating func endFromApp(_ params: ActivityEndParams, at now: Date) -> ActivityReply {
        if let content = params.content, let refusal = ActivityInput.contentRefusal(content, field: "content") {
            return refuse(refusal, app: params.app ?? "", activity: params.id, at: now)
        }
        switch ongoingRecord(params.id, caller: params.app) {
        case .failure(let refusal): return refuse(refusal, app: params.app ?? "", activity: params.id, at: now)
        case .success(let record):
            if let content = params.content, let refusal = sizeRefusal(record, state: content.state) {
                return refuse(refusal, app: record.app, activity: record.id, at: now)
            }
            endActivity(
                record.id, content: params.content, policy: params.dismissalPolicy ?? .default, source: .app,
                endedAt: now, at: now)
            return .activity(activityInfo(activities[record.id]!, at: now))
        }
    }

    // MARK: - Transitions

    func ongoingRecord(_ id: String, caller: String?) -> Result<ActivityRecord, ActivityRefusal> {
        guard let record = activities[id] else { return .failure(.unknownActivity(id)) }
        if let caller, caller != record.app { return .failure(.notOwner(id, owner: record.app, caller: caller)) }
        guard record.state.isOngoing else { return .failure(.notOngoing(record)) }
        return .success(record)
    }

    func sizeRefusal(_ record: ActivityRecord, state: JSONValue) -> ActivityRefusal? {
        let limit = configuration.activities.maxPayloadBytes
        let bytes = ActivityPayloadSize.bytes(attributes: record.attributes, state: state)
        return bytes > limit ? .attributesTooLarge(bytes, limit: limit) : nil
    }

    func isStale(_ content: ActivityContentPayload, at now: Date) -> Bool {
        content.staleDate.map { $0 <= now } ?? false
    }

    func staleDetail(_ content: ActivityContentPayload) -> String {
        "its content's staleDate \(content.staleDate.map(RFC3339.format) ?? "") has passed; it shows as out of date until the next update"
    }

    mutating func applyUpdate(
        _ id: String, content: ActivityContentPayload, alert: ActivityAlertPayload?, source: ActivityUpdateSource,
        budget: PushBudgetUsage? = nil, at now: Date
    ) {
        guard var record = activities[id] else { return }
        let wasStale = record.state == .stale
        record.content = content
        record.updatedAt = now
        if let alert { record.lastAlert = alert }
        record.state = isStale(content, at: now) ? .stale : .active
        activities.records[id] = record
        var detail: String
        switch source {
        case .app: detail = "updated by the app (local updates are not budgeted)"
        case .push5: detail = "updated by a priority-5 push (not budgeted)"
        case .push10: detail = "updated by a priority-10 push (\(budget.map { "\($0.used) of \($0.limit)" } ?? "") in the last hour)"
        case .host: detail = "updated by the host"
        }
        if let alert { detail += "; alert \"\(alert.title)\"" }
        if wasStale, record.state == .active { detail += "; no longer stale" }
        note(.updated, id, source: source, detail: detail, budget: budget, at: now)
        if record.state == .stale { note(.stale, id, source: .host, detail: staleDetail(content), at: now) }
        scheduleActivityDeadline(id)
    }

    mutating func endActivity(
        _ id: String, content: ActivityContentPayload?, policy: ActivityDismissalPolicyPayload,
        source: ActivityUpdateSource, endedAt: Date, budget: PushBudgetUsage? = nil, at now: Date
    ) {
        guard var record = activities[id] else { return }
        let rules = configuration.activities
        if let content { record.content = content }
        record.updatedAt = now
        record.state = .ended
        record.endedAt = endedAt
        let dismissAt = ActivityLifetime.dismissal(policy, endedAt: endedAt, rules: rules)
        record.dismissAt = dismissAt
        activities.records[id] = record
        let who: String
        switch source {
        case .app: who = "ended by the app"
        case .push5, .push10: who = "ended by a priority-\(source == .push5 ? 5 : 10) push"
        case .host: who = "ended by the host \(DurationWords.format(rules.maxActive)) after it started (activities.max_active; Apple: 8 hours)"
        }
        var policyText = "dismissal policy \(policy)"
        if case .after(let date) = policy, date != dismissAt {
            policyText += date > dismissAt ? ", capped at \(DurationWords.format(rules.maxLockScreen)) after the end (activities.max_lock_screen)" : ", no sooner than the end"
        }
        note(
            .ended, id, source: source,
            detail: "\(who); \(policyText): on the Lock Screen until \(RFC3339.format(dismissAt))", budget: budget, at: now)
        if dismissAt <= now { dismiss(id, at: now) }
        scheduleActivityDeadline(id)
    }

    mutating func dismiss(_ id: String, at now: Date) {
        guard var record = activities[id], record.state != .dismissed else { return }
        record.state = .dismissed
        record.views = nil
        activities.records[id] = record
        note(.dismissed, id, source: .host, detail: "removed from the Lock Screen", at: now)
        scheduleActivityDeadline(id)
    }

    /// The host's own transitions, in the order they fall due.
    mutating func activityDeadline(_ id: String, at now: Date) {
        let rules = configuration.activities
        while let record = activities[id] {
            if record.state.isOngoing {
                let ends = ActivityLifetime.forcedEnd(startedAt: record.startedAt, rules: rules)
                if ends <= now {
                    endActivity(id, content: nil, policy: .default, source: .host, endedAt: ends, at: now)
                    continue
                }
                if record.state == .active, isStale(record.content, at: now) {
                    var stale = record
                    stale.state = .stale
                    activities.records[id] = stale
                    note(.stale, id, source: .host, detail: staleDetail(record.content), at: now)
                    continue
                }
            } else if record.state == .ended, let dismissAt = record.dismissAt, dismissAt <= now {
                dismiss(id, at: now)
                continue
            } else if record.state == .dismissed, let dismissAt = record.dismissAt, dismissAt + rules.keepDismissed <= now {
                activities.records[id] = nil
                step.activitiesRemoved.insert(id)
                deadlines.schedule(.activity(id), at: nil)
                return
            }
            break
        }
        scheduleActivityDeadline(id)
    }

    /// The activity's next transition: stale, the 8-hour end, dismissal, or being forgotten.
    mutating func scheduleActivityDeadline(_ id: String) {
        guard let record = activities[id] else {
            deadlines.schedule(.activity(id), at: nil)
            return
        }
        let rules = configuration.activities
        var next: Date?
        switch record.state {
        case .active:
            next = ActivityLifetime.forcedEnd(startedAt: record.startedAt, rules: rules)
            if let stale = record.content.staleDate { next = min(next!, stale) }
        case .stale: next = ActivityLifetime.forcedEnd(startedAt: record.startedAt, rules: rules)
        case .ended: next = record.dismissAt
        case .dismissed: next = record.dismissAt.map { $0 + rules.keepDismissed }
        }
        deadlines.schedule(.activity(id), at: next)
    }

    // MARK: - Notices

    mutating func note(
        _ event: ActivityNotice.Event, _ id: String, source: ActivityUpdateSource, detail: String,
        budget: PushBudgetUsage? = nil, until: Date? = nil, reason: PushThrottleReason? = nil, at now: Date
    ) {
        guard var record = activities[id] else { return }
        record.history.append(ActivityHistoryItem(at: now, event: event.rawValue, source: source, detail: detail))
        if record.history.count > configuration.activities.historyKept {
            record.history.removeFirst(record.history.count - configuration.activities.historyKept)
        }
        activities.records[id] = record
        step.activitiesChanged.insert(id)
        switch event {
        case .requested, .updated, .stale, .ended: step.activitiesToDraw.insert(id)
        case .throttled, .ignored, .dismissed, .refused, .rendered: break
        }
        emit(
            .activity(
                ActivityNotice(
                    event: event, at: now, activityId: id, app: record.app, attributesType: record.attributesType,
                    source: source, state: record.state, detail: detail, budget: budget, until: until,
                    reason: reason?.rawValue)))
    }

    mutating func refuse(
        _ refusal: ActivityRefusal, app: String, attributesType: String? = nil, activity: String? = nil,
        source: ActivityUpdateSource = .app, at now: Date
    ) -> ActivityReply {
        let record = activity.flatMap { activities[$0] }
        if let record {
            var changed = record
            changed.history.append(
                ActivityHistoryItem(at: now, event: "refused", source: source, detail: "\(refusal.reason): \(refusal.message)"))
            activities.records[record.id] = changed
            step.activitiesChanged.insert(record.id)
        }
        emit(
            .activity(
                ActivityNotice(
                    event: .refused, at: now, activityId: record?.id, app: record?.app ?? app,
                    attributesType: record?.attributesType ?? attributesType, source: source, state: record?.state,
                    detail: refusal.message, reason: refusal.reason)))
        return .refused(refusal)
    }
}

/// `8h`, `4h`, `90m`, as people and config files write durations.
enum DurationWords {
    static func format(_ interval: TimeInterval) -> String {
        let seconds = Int(interval)
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}
