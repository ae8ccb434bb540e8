import Foundation
import WidgetHostCore
import WidgetHostProtocol

extension SyntheticProvider {
    /// The reply to `call` made at `now`: what a simple provider of this shape would return.
    func answer(_ call: ExtensionRequest.Call, at now: Date) -> ExtensionReply {
        switch call {
        case .placeholder(let params):
            return .entry(TimelineEntryPayload(date: now, content: ["placeholder": .string(params.kind)]))
        case .snapshot(let params):
            return .entry(TimelineEntryPayload(date: now, content: ["snapshot": .string(params.kind)]))
        case .timeline(let params):
            let entries = (0..<entries).map { index in
                TimelineEntryPayload(
                    date: params.now + every * Double(index),
                    content: ["widget": .string(params.widgetId), "entry": .number(Double(index))])
            }
            let policy: TimelinePolicy
            switch self.policy {
            case .atEnd: policy = .atEnd
            case .never: policy = .never
            // The timeline covers `entries` × `every`; reload when it runs out.
            case .after: policy = .after(params.now + every * Double(self.entries))
            }
            // A typical encoded size; the core checks it against limits.max_timeline_bytes.
            return .timeline(TimelinePayload(entries: entries, policy: policy), byteCount: 120 + 110 * entries.count)
        case .perform:
            return .performed(IntentPerformResult())
        case .options:
            return .options(IntentOptionsResult(options: []))
        case .controlValue:
            return .controlValue(ControlValueResult())
        case .activityRender(let params):
            // One line of text per presentation: the activity's id.
            let view = ViewArchive(family: nil, root: ViewNode(.text([ArchiveTextRun(.string(params.activityId))])))
            let result = ActivityRenderResult(
                lockScreen: view, compactLeading: view, compactTrailing: view, minimal: view,
                expanded: ActivityRenderResult.regionPositions.map { .init(position: $0, view: view) })
            return .activityViews((try? JSONValue(encoding: result)) ?? .null, byteCount: 1000)
        }
    }
}
