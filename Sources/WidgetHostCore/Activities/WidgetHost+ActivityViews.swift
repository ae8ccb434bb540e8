import Foundation
import WidgetHostProtocol

/// A Live Activity's views (docs/rules.md, "Live Activity views"): when it starts, is updated
/// (by the app or a push), goes stale or ends, the host asks the extension that declared an
/// `ActivityConfiguration` for its attributes type (`activity/render`, through the same queue,
/// deadline and memory limit as every request), checks the answer (`ActivityViewValidation`)
/// and keeps the latest accepted views in the record. One render per activity at a time; a
/// change while one runs asks again after it. A refused or failed render keeps the previous
/// views and says why in the activity's story. Dismissal drops the views.
extension WidgetHost {
    /// The extension that draws `record`: one of its app's that lists its attributes type
    /// (the first by bundle id, if several do); nil when none does.
    func activityExtension(for record: ActivityRecord) -> ExtensionDescriptor? {
        catalog.extensions.filter { $0.app == record.app && $0.activities.contains(record.attributesType) }
            .min { $0.id < $1.id }
    }

    /// Every activity still on the Lock Screen is drawn again (the catalog changed: an
    /// extension may have appeared, or a new build of it).
    mutating func redrawActivities() {
        for record in activities.all where record.state != .dismissed {
            step.activitiesToDraw.insert(record.id)
        }
    }

    /// Asks for the views of every activity this step changed.
    mutating func drawChangedActivities(at now: Date) {
        guard !step.activitiesToDraw.isEmpty else { return }
        let ids = step.activitiesToDraw.sorted(by: ActivityBook.order)
        step.activitiesToDraw = []
        for id in ids { askActivityViews(id, at: now) }
    }

    mutating func askActivityViews(_ id: String, at now: Date) {
        guard let record = activities[id], record.state != .dismissed, let ext = activityExtension(for: record) else {
            return
        }
        if var running = activityRenders[id] {
            running.again = true
            activityRenders[id] = running
            return
        }
        let params = ActivityRenderParams(
            activityId: id, attributesType: record.attributesType, attributes: record.attributes,
            state: record.content.state, isStale: record.state == .stale, environment: requestEnvironment)
        let request = enqueue(.activityRender(params), for: nil, on: ext.id, at: now)
        activityRenders[id] = ActivityRenderState(asking: request, contentUpdatedAt: record.updatedAt)
    }

    /// The extension answered `activity/render` (or failed to).
    mutating func activityViewsAnswered(
        _ request: ExtensionRequest, _ outcome: ExtensionAnswer<(result: JSONValue, byteCount: Int)>, at now: Date
    ) {
        guard case .activityRender(let params) = request.call, let running = activityRenders[params.activityId],
            running.asking == request.id
        else { return }
        let id = params.activityId
        activityRenders[id] = nil
        defer { if running.again { askActivityViews(id, at: now) } }
        guard var record = activities[id], record.state != .dismissed else { return }
        switch outcome {
        case .answered(let answer):
            switch ActivityViewValidation.validate(
                result: answer.result, byteCount: answer.byteCount, limits: configuration.limits)
            {
            case .success(let result):
                record.views = ActivityViews(
                    renderedAt: now, contentUpdatedAt: running.contentUpdatedAt, isStale: params.isStale ?? false,
                    result: result)
                activities.records[id] = record
                step.activitiesChanged.insert(id)
                emit(
                    .activity(
                        ActivityNotice(
                            event: .rendered, at: now, activityId: id, app: record.app,
                            attributesType: record.attributesType, source: .host, state: record.state,
                            detail: "the extension drew its Lock Screen view and \(result.presentations.count - 1) "
                                + "Dynamic Island presentations")))
            case .failure(let refusal):
                viewsNotTaken(id, reason: refusal.code, detail: refusal.message, at: now)
            }
        case .failed(let detail):
            viewsNotTaken(id, reason: "renderFailed", detail: "activity/render: \(detail)", at: now)
        }
    }

    /// A render that gave nothing to show: the story says why; the previous views stay.
    private mutating func viewsNotTaken(_ id: String, reason: String, detail: String, at now: Date) {
        guard var record = activities[id] else { return }
        let sentence = "its views were not taken (\(detail)); "
            + (record.views == nil ? "it has none to show yet" : "the previous ones stay")
        record.history.append(ActivityHistoryItem(at: now, event: "refused", source: .host, detail: sentence))
        if record.history.count > configuration.activities.historyKept {
            record.history.removeFirst(record.history.count - configuration.activities.historyKept)
        }
        activities.records[id] = record
        step.activitiesChanged.insert(id)
        emit(
            .activity(
                ActivityNotice(
                    event: .refused, at: now, activityId: id, app: record.app, attributesType: record.attributesType,
                    source: .host, state: record.state, detail: sentence, reason: reason)))
    }
}

/// One activity's render in flight (not persisted: a restart draws every activity again).
struct ActivityRenderState: Sendable, Hashable {
    var asking: RequestID
    /// The `updatedAt` of the content it was asked for.
    var contentUpdatedAt: Date
    /// The activity changed while it ran: ask again when it ends.
    var again = false
}
