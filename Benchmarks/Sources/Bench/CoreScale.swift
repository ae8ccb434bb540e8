import Foundation
import SeededRandom
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

    /// Every size measured in blocks that take turns (`rounds` blocks of `iterations / rounds`
    /// reloads each, in an order drawn afresh each round from a fixed seed), so that what the
    /// machine does over the run weighs on every size alike: measured size after size, the
    /// 100,000 / 1,000 ratio of one build read 0.81–2.12× in four runs (28 Nov 04:15). Within a
    /// block the caches hold one host, as they would size after size.
    static func measure(sizes: [Int], iterations: Int, rounds: Int = 10) -> [Point] {
        var benches = sizes.map { size in
            log("5. core scale: \(size) instances, filling")
            return Bench(instances: size)
        }
        log("5. core scale: \(rounds) rounds of \(iterations / rounds) reloads for each size")
        var generator = SeededGenerator(seed: 0xC0_5CA1E)
        for _ in 0..<rounds {
            for index in benches.indices.shuffled(using: &generator) {
                benches[index].reload(times: iterations / rounds)
            }
        }
        return benches.map { $0.point() }
    }

    /// One host with `instances` instances, and the reloads measured on it so far.
    private struct Bench {
        var host: WidgetHost
        var ids: [WidgetID] = []
        var now = start
        var iteration = 0
        var requestStep = Sample()
        var replyStep = Sample()
        let fillSeconds: Double
        var generator = SystemRandomNumberGenerator()

        init(instances: Int) {
            var configuration = HostConfiguration()
            configuration.budget.enforce = false
            host = WidgetHost(configuration: configuration)
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
            ids.reserveCapacity(instances)
            for index in 0..<instances {
                let step = host.handle(.widgetAdded(AddWidgetRequest(kind: "BenchWidget", family: .systemSmall)), at: now)
                if case .widgetAdded(let added)? = step.reply { ids.append(WidgetID(added.widget.id)) }
                answer(step, &host, now: now, spread: Double(index))
            }
            fillSeconds = monotonicSeconds() - fillStart
        }

        /// `count` reloads of random instances, each step timed; a block's first 10 warm the
        /// caches for this host and are not kept.
        mutating func reload(times count: Int) {
            for block in 0..<(count + 10) {
                now += 0.001
                iteration += 1
                let id = ids.randomElement(using: &generator)!
                let requestStart = monotonicSeconds()
                let step = host.handle(.reloadRequested(ReloadRequest(.widget(id), origin: .userInteraction)), at: now)
                let requestTime = monotonicSeconds() - requestStart
                guard let request = step.requests.first else { fatalError("no request for \(id): \(step)") }
                let reply = ExtensionReply.timeline(payload(at: now, spread: Double(iteration)), byteCount: 200)
                let replyStart = monotonicSeconds()
                _ = host.handle(.extensionReplied(request.id, reply, footprintBytes: 1_000_000), at: now)
                let replyTime = monotonicSeconds() - replyStart
                if block >= 10 {
                    requestStep.add(requestTime * 1e6)
                    replyStep.add(replyTime * 1e6)
                }
            }
        }

        func point() -> Point {
            let reads = 1_000_000
            var checksum = 0.0
            let readStart = monotonicSeconds()
            for _ in 0..<reads { checksum += host.nextDeadline?.timeIntervalSinceReferenceDate ?? 0 }
            let perRead = (monotonicSeconds() - readStart) / Double(reads) * 1e9
            if checksum == 42 { log("") }  // Keeps the loop from being optimised away.
            return Point(
                instances: ids.count, requestStep: requestStep, replyStep: replyStep, nextDeadlineNanoseconds: perRead,
                fillSeconds: fillSeconds)
        }
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
