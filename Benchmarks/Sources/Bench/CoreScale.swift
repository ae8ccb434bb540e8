import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// Figure 5: WidgetHostCore alone, with n instances. One reload of one instance is two
/// steps — the request (`reloadRequested` → `send`) and the reply (`extensionReplied` →
/// new timeline, entry change, persist) — each timed on its own, and `nextDeadline`.
enum CoreScale {
    struct Point {
        var instances: Int
        var requestStep: Sample
        var replyStep: Sample
        /// Nanoseconds per `nextDeadline` read.
        var nextDeadlineNanoseconds: Double
        var fillSeconds: Double
    }

    static let start = Date(timeIntervalSince1970: 1_771_113_600)  // 2026-02-15T00:00:00Z
    static let extensionID = "org.widgethost.bench.widget"

    static func measure(instances: Int, iterations: Int) -> Point {
        var configuration = HostConfiguration()
        configuration.budget.enforce = false
        var host = WidgetHost(configuration: configuration)
        var now = start
        _ = host.handle(.hostStarted(bootID: "bench"), at: now)
        _ = host.handle(
            .catalogChanged([
                ExtensionDescriptor(
                    id: extensionID,
                    widgets: [
                        WidgetDescriptor(
                            kind: "BenchWidget", displayName: "Bench", description: "Bench",
                            supportedFamilies: [.systemSmall])
                    ])
            ]), at: now)

        // Fill: every instance added and served, its next reload hours away (spread so the
        // deadline queue holds n distinct times).
        let fillStart = monotonicSeconds()
        var ids: [WidgetID] = []
        ids.reserveCapacity(instances)
        for index in 0..<instances {
            let step = host.handle(.widgetAdded(AddWidgetRequest(kind: "BenchWidget", family: .systemSmall)), at: now)
            if case .widgetAdded(let added)? = step.reply { ids.append(WidgetID(added.widget.id)) }
            answer(step, &host, now: now, spread: Double(index))
        }
        let fillSeconds = monotonicSeconds() - fillStart

        var generator = SystemRandomNumberGenerator()
        var requestStep = Sample()
        var replyStep = Sample()
        for iteration in 0..<(iterations + 100) {
            now += 0.001
            let id = ids.randomElement(using: &generator)!
            let requestStart = monotonicSeconds()
            let step = host.handle(.reloadRequested(ReloadRequest(.widget(id), origin: .userInteraction)), at: now)
            let requestTime = monotonicSeconds() - requestStart
            guard let request = step.requests.first else { fatalError("no request for \(id): \(step)") }
            let reply = ExtensionReply.timeline(payload(at: now, spread: Double(iteration)), byteCount: 200)
            let replyStart = monotonicSeconds()
            _ = host.handle(.extensionReplied(request.id, reply, footprintBytes: 1_000_000), at: now)
            let replyTime = monotonicSeconds() - replyStart
            if iteration >= 100 {
                requestStep.add(requestTime * 1e6)
                replyStep.add(replyTime * 1e6)
            }
        }

        let reads = 1_000_000
        var checksum = 0.0
        let readStart = monotonicSeconds()
        for _ in 0..<reads { checksum += host.nextDeadline?.timeIntervalSinceReferenceDate ?? 0 }
        let perRead = (monotonicSeconds() - readStart) / Double(reads) * 1e9
        if checksum == 42 { log("") }  // Keeps the loop from being optimised away.

        return Point(
            instances: instances, requestStep: requestStep, replyStep: replyStep, nextDeadlineNanoseconds: perRead,
            fillSeconds: fillSeconds)
    }

    private static func payload(at now: Date, spread: Double) -> TimelinePayload {
        TimelinePayload(
            entries: [TimelineEntryPayload(date: now, content: ["serial": .integer(Int(spread))])],
            policy: .after(now + 6 * 3600 + spread.truncatingRemainder(dividingBy: 3600)))
    }

    /// Answers every request in `step` at once, as a fast extension would.
    private static func answer(_ step: HostStep, _ host: inout WidgetHost, now: Date, spread: Double) {
        for request in step.requests {
            let reply: ExtensionReply
            switch request.call {
            case .placeholder, .snapshot:
                reply = .entry(TimelineEntryPayload(date: now, content: ["placeholder": .bool(true)]))
            case .timeline:
                reply = .timeline(payload(at: now, spread: spread), byteCount: 200)
            case .perform: reply = .performed(IntentPerformResult())
            case .options: reply = .options(IntentOptionsResult(options: []))
            case .controlValue: reply = .controlValue(ControlValueResult())
            case .activityRender: reply = .activityViews(.null, byteCount: 0)
            }
            answer(host.handle(.extensionReplied(request.id, reply, footprintBytes: 1_000_000), at: now), &host,
                now: now, spread: spread)
        }
    }
}
