import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Limits on an extension")
struct ExtensionLimitTests {
    @Test("timeline/get must answer within timeline_timeout or the extension is killed", arguments: [5.0, 2.0])
    func timelineTimeout(seconds: Double) {
        var test = TestHost(configuration: config { $0.limits.timelineTimeout = seconds }, provider: { _ in .hold })
        let id = test.add()
        guard let request = test.held.first else { Issue.record("nothing sent"); return }
        #expect(request.deadline == t0 + seconds)
        test.advance(to: t0 + seconds - 0.001)
        #expect(test.status(id).reloadRunning)
        test.advance(to: t0 + seconds)
        #expect(test.effects.contains(.kill(extension: birthdayExtension.id, reason: .timedOut)))
        let status = test.status(id)
        #expect(status.lastOutcome?.result == .timedOut)
        #expect(status.lastOutcome?.durationMs == seconds * 1000)
        #expect(status.currentEntry.source == .placeholder)
        // The late reply is ignored.
        test.handle(.extensionReplied(request.id, .timeline(TimelinePayload(entries: [entry(at: test.now)], policy: .never), byteCount: 10), footprintBytes: nil))
        #expect(test.status(id).lastOutcome?.result == .timedOut)
    }

    @Test("placeholder/get must answer within placeholder_timeout", arguments: [1.0, 0.25])
    func placeholderTimeout(seconds: Double) {
        // Driven by hand: TestHost would answer the placeholder at once.
        var host = WidgetHost(configuration: config { $0.limits.placeholderTimeout = seconds })
        _ = host.handle(.catalogChanged([weatherExtension]), at: t0)
        let added = host.handle(.widgetAdded(AddWidgetRequest(kind: "WeatherWidget", family: .systemSmall)), at: t0)
        #expect(added.requests.map(\.call.method) == [.placeholder])
        #expect(added.requests.first?.deadline == t0 + seconds)
        let expired = host.handle(.deadlineReached, at: t0 + seconds)
        #expect(expired.effects.contains(.kill(extension: weatherExtension.id, reason: .timedOut)))
        // The timeline request queued behind it goes to a fresh process, uncharged again.
        #expect(expired.requests.map(\.call.method) == [.timeline])
        let status = try! host.status(of: "w1", at: t0 + seconds).get()[0]
        #expect(status.diagnostics.contains { $0.code == "timedOut" && $0.message.contains("placeholder/get") })
        #expect(status.budget.used == 0)
    }

    @Test("A footprint sample over limits.memory kills the extension", arguments: [30 * 1_048_576, 8 * 1_048_576])
    func memoryLimit(limit: Int) {
        var test = TestHost(configuration: config { $0.limits.memory = limit }, provider: { _ in .hold })
        let id = test.add()
        let request = test.held[0]
        test.handle(.footprintSampled(request.id, bytes: limit))
        #expect(test.status(id).reloadRunning)
        test.handle(.footprintSampled(request.id, bytes: limit + 4096))
        #expect(test.effects.contains(.kill(extension: birthdayExtension.id, reason: .memoryLimitExceeded)))
        let outcome = test.status(id).lastOutcome
        #expect(outcome?.result == .memoryLimitExceeded)
        #expect(outcome?.peakFootprintBytes == limit + 4096)
        #expect(outcome?.detail?.contains("exceeded limits.memory") == true)
    }

    @Test("The footprint is checked once more when the reply arrives")
    func memoryCheckedOnReply() {
        var test = TestHost(provider: { _ in .hold })
        let id = test.add()
        test.handle(.extensionReplied(test.held[0].id, .timeline(TimelinePayload(entries: [entry(at: t0)], policy: .never), byteCount: 10), footprintBytes: 31 * 1_048_576))
        #expect(test.status(id).lastOutcome?.result == .memoryLimitExceeded)
        #expect(test.status(id).currentEntry.source == .placeholder)
    }

    @Test("Peak footprint is recorded for successful reloads")
    func peakFootprint() {
        var test = TestHost(provider: { _ in .hold })
        let id = test.add()
        let request = test.held[0]
        test.handle(.footprintSampled(request.id, bytes: 5_000_000))
        test.handle(.footprintSampled(request.id, bytes: 3_000_000))
        test.handle(.extensionReplied(request.id, .timeline(TimelinePayload(entries: [entry(at: t0)], policy: .never), byteCount: 10), footprintBytes: 4_000_000))
        #expect(test.status(id).lastOutcome?.peakFootprintBytes == 5_000_000)
        #expect(test.status(id).lastOutcome?.result == .success)
    }

    @Test("An extension gets one request at a time; a breach is charged to the request that was running")
    func oneRequestAtATime() {
        var host = WidgetHost()
        _ = host.handle(.catalogChanged([birthdayExtension, weatherExtension]), at: t0)
        let first = host.handle(.widgetAdded(AddWidgetRequest(kind: "BirthdayHomeWidget", family: .systemSmall)), at: t0)
        let second = host.handle(.widgetAdded(AddWidgetRequest(kind: "BirthdayHomeWidget", family: .systemMedium)), at: t0)
        let other = host.handle(.widgetAdded(AddWidgetRequest(kind: "WeatherWidget", family: .systemSmall)), at: t0)
        #expect(first.requests.count == 1)
        #expect(second.requests.isEmpty)  // queued behind w1's placeholder
        #expect(other.requests.count == 1)  // another extension is never delayed
        let crashed = host.handle(.extensionFailed(first.requests[0].id, .crashed("killed by signal 11")), at: t0 + 1)
        #expect(crashed.requests.first?.widget == "w1")
        #expect(crashed.requests.first?.call.method == .timeline)
        let w2 = try! host.status(of: "w2", at: t0 + 1).get()[0]
        #expect(w2.diagnostics.isEmpty)
    }

    @Test("An idle extension is stopped after extension.idle_timeout", arguments: [30.0, 120.0])
    func idleTimeout(seconds: Double) {
        var test = TestHost(configuration: config { $0.extensionLifecycle.idleTimeout = seconds })
        test.add()
        #expect(test.host.nextDeadline == t0 + seconds)
        test.advance(to: t0 + seconds - 1)
        #expect(!test.effects.contains(.terminate(extension: birthdayExtension.id)))
        test.advance(to: t0 + seconds)
        #expect(test.effects.contains(.terminate(extension: birthdayExtension.id)))
    }

    @Test("A crash, a protocol error: the outcome carries the detail and the previous timeline stays")
    func crashAndProtocolError() {
        var failure: ExtensionFailure?
        var test = TestHost(provider: { params in
            if let failure { return .fail(failure) }
            return .timeline(TimelinePayload(entries: [entry(at: params.now, "kept")], policy: .never))
        })
        let id = test.add()
        for (index, injected) in [ExtensionFailure.crashed("exit status 134"), .protocolError("line 1 is not JSON")].enumerated() {
            failure = injected
            test.advance(by: .hours(2))
            _ = test.reload(origin: .foreground)
            let status = test.status(id)
            #expect(status.lastOutcome?.result == (index == 0 ? .crashed : .protocolError))
            #expect(status.lastOutcome?.detail?.contains(index == 0 ? "exit status 134" : "line 1 is not JSON") == true)
            #expect(status.currentEntry.entry?.content["text"] == "kept")
        }
    }
}
