import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// Reloads written ahead to an extension that declared `pipelining` (issue 16: reloads due at
/// one instant go out in one write, and each still runs, and is charged, on its own).
@Suite("Pipelining")
struct PipeliningTests {
    static let pipelined: ExtensionDescriptor = {
        var descriptor = birthdayExtension
        descriptor.pipelining = true
        return descriptor
    }()

    /// `count` widgets served, then held: every later `timeline/get` waits for the test.
    static func host(_ count: Int, pipelining: Bool = true, configuration: HostConfiguration = .default) -> TestHost {
        var hold = false
        var test = TestHost(
            configuration: configuration, extensions: [pipelining ? pipelined : birthdayExtension, weatherExtension],
            provider: { params in
                hold ? .hold : .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .never))
            })
        for _ in 0..<count { test.add() }
        hold = true
        return test
    }

    static func reply(_ request: ExtensionRequest, at now: Date) -> HostEvent {
        .extensionReplied(
            request.id, .timeline(TimelinePayload(entries: [entry(at: now, "new")], policy: .never), byteCount: 100),
            footprintBytes: nil)
    }

    @Test("Reloads due at one instant are all written in one step, in order; each runs when the one before is answered")
    func oneStep() {
        var test = Self.host(5)
        let step = test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil))))
        let sent = step.requests
        #expect(sent.map(\.widget) == ["w1", "w2", "w3", "w4", "w5"])
        #expect(sent.map(\.call.method) == Array(repeating: .timeline, count: 5))
        #expect(sent.map(\.id.value) == sent.map(\.id.value).sorted())
        // The first runs from now: its timeout is the only extension deadline.
        #expect(test.host.nextDeadline == t0 + 5)

        // Each answer lets the next run, from the answer's instant; nothing is written again.
        for (index, request) in sent.enumerated() {
            test.now = t0 + Double(index + 1)
            let answered = test.handle(Self.reply(request, at: test.now))
            #expect(answered.requests.isEmpty)
            #expect(test.status(request.widget!).currentEntry.entry?.content["text"] == "new")
            if index + 1 < sent.count {
                #expect(test.status(sent[index + 1].widget!).reloadRunning)
                #expect(test.host.nextDeadline == test.now + 5)
            }
        }
    }

    @Test("Without pipelining the extension gets one request at a time, the next when one is answered")
    func oneAtATime() {
        var test = Self.host(3, pipelining: false)
        let first = test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil)))).requests
        #expect(first.map(\.widget) == ["w1"])
        let second = test.handle(Self.reply(first[0], at: t0)).requests
        #expect(second.map(\.widget) == ["w2"])
        let third = test.handle(Self.reply(second[0], at: t0)).requests
        #expect(third.map(\.widget) == ["w3"])
    }

    @Test("A request written ahead is timed from when it runs; its breach is its own, and what is behind it goes to a fresh process")
    func timeoutAfterAhead() {
        var test = Self.host(4, configuration: config { $0.limits.timelineTimeout = 2 })
        let sent = test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil)))).requests
        #expect(sent.count == 4)
        test.now = t0 + 1.5
        test.handle(Self.reply(sent[0], at: test.now))
        // w2 has run for 1.5 s, not 3: still within its 2 s.
        test.advance(to: t0 + 3.4)
        #expect(test.status("w2").reloadRunning)
        #expect(!test.effects.contains { if case .kill = $0 { true } else { false } })
        let before = test.effects.count
        test.advance(to: t0 + 3.5)
        let after = Array(test.effects[before...])
        #expect(after.contains(.kill(extension: birthdayExtension.id, reason: .timedOut)))
        #expect(test.status("w2").lastOutcome?.result == .timedOut)
        // The reload counts from its start, as one queued behind another always did; the
        // request's own time, from when it ran, is what broke the limit.
        #expect(test.status("w2").lastOutcome?.durationMs == 3500)
        #expect(test.status("w2").lastOutcome?.detail?.contains("no reply after 2.00s") == true)
        #expect(test.status("w1").lastOutcome?.result == .success)
        // w3 and w4 were in the dead process's stdin: written again, after the kill, in order.
        let resent = after.compactMap { if case .send(let request) = $0 { request } else { nil } }
        #expect(resent.map(\.widget) == ["w3", "w4"])
        #expect(resent.map(\.id) == [sent[2].id, sent[3].id])
        let kill = after.firstIndex(of: .kill(extension: birthdayExtension.id, reason: .timedOut))!
        let firstSend = after.firstIndex { if case .send = $0 { true } else { false } }!
        #expect(kill < firstSend)
        #expect(test.status("w3").lastOutcome?.result == .success)  // its earlier reload; this one runs
        #expect(test.status("w3").reloadRunning)
    }

    @Test("A removed widget's reload written ahead is answered and dropped, and not written again after a kill")
    func removedAhead() {
        var test = Self.host(4)
        let sent = test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil)))).requests
        test.handle(.widgetRemoved("w2"))
        // w1's request fails: w2's (removed) is not sent again; w3 and w4 are.
        let failed = test.handle(.extensionFailed(sent[0].id, .crashed("exit status 3")))
        #expect(failed.requests.map(\.widget) == ["w3", "w4"])

        // And on a process that lives: the removed widget's answer is dropped without a trace.
        var live = Self.host(3)
        let written = live.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil)))).requests
        live.handle(.widgetRemoved("w2"))
        live.handle(Self.reply(written[0], at: t0))
        let noticesBefore = live.notices.count
        let dropped = live.handle(Self.reply(written[1], at: t0))
        #expect(dropped.requests.isEmpty)
        #expect(live.notices.count == noticesBefore)
        #expect(live.status("w3").reloadRunning)
        live.handle(Self.reply(written[2], at: t0))
        #expect(live.status("w3").currentEntry.entry?.content["text"] == "new")
    }

    @Test("A snapshot goes ahead too, in order with the reloads around it")
    func snapshotsAhead() {
        var test = Self.host(3)
        test.holdEntries = true
        let first = test.handle(.reloadRequested(ReloadRequest(.widget("w1")))).requests
        #expect(first.map(\.widget) == ["w1"])
        let snapshot = test.handle(.snapshotRequested("w2", isPreview: true)).requests
        #expect(snapshot.map(\.call.method) == [.snapshot])
        let third = test.handle(.reloadRequested(ReloadRequest(.widget("w3")))).requests
        #expect(third.map(\.widget) == ["w3"])
        #expect(test.handle(Self.reply(first[0], at: t0)).requests.isEmpty)
        // The snapshot runs now: its timeout is the extension's deadline.
        #expect(test.host.nextDeadline == t0 + 5)
    }

    @Test("At most aheadLimit requests are written ahead of the running one; more only once no more than aheadRefill are left, then up to aheadLimit in one write")
    func aheadLimit() {
        var test = Self.host(100)
        let sent = test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil)))).requests
        #expect(sent.count == 65)
        var later: [[ExtensionRequest]] = []
        for request in sent.prefix(32) { later.append(test.handle(Self.reply(request, at: t0)).requests) }
        #expect(later.dropLast().allSatisfy { $0.isEmpty })
        #expect(later.last?.map(\.widget) == (66...97).map { WidgetID("w\($0)") })
    }
}
