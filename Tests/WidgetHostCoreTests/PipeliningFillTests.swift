import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// Entry requests written ahead too (issue 16, the fill): a new widget's `placeholder/get`
/// and first `timeline/get` go to a pipelining extension in the add's step, behind whatever
/// runs, and a steady stream of them goes out many a write. Each still runs, is timed and is
/// charged from the answer to the one before it.
@Suite("Pipelining a fill")
struct PipeliningFillTests {
    static func add(_ test: inout TestHost) -> HostStep {
        test.handle(.widgetAdded(AddWidgetRequest(kind: "BirthdayHomeWidget", family: .systemSmall)))
    }

    /// One served widget whose reload now runs, held; placeholders and snapshots held too.
    static func busy() -> (test: TestHost, running: ExtensionRequest) {
        var test = PipeliningTests.host(1)
        test.holdEntries = true
        let running = test.handle(.reloadRequested(ReloadRequest(.widget("w1")))).requests
        precondition(running.count == 1)
        return (test, running[0])
    }

    static func answer(_ request: ExtensionRequest, at now: Date) -> HostEvent {
        switch request.call {
        case .placeholder:
            .extensionReplied(
                request.id, .entry(TimelineEntryPayload(date: now, content: ["placeholder": "ahead"])),
                footprintBytes: nil)
        default: PipeliningTests.reply(request, at: now)
        }
    }

    @Test("A widget added behind a running reload: its placeholder and first timeline are written in the add's step; each runs from the answer before it")
    func addedBehind() {
        var (test, running) = Self.busy()
        let added = Self.add(&test).requests
        #expect(added.map(\.call.method) == [.placeholder, .timeline])
        #expect(added.map(\.widget) == ["w2", "w2"])
        // Only w1's reload runs: its timeout is the only extension deadline.
        #expect(test.host.nextDeadline == t0 + 5)

        test.now = t0 + 2
        #expect(test.handle(Self.answer(running, at: test.now)).requests.isEmpty)
        // The placeholder runs from w1's answer: placeholder_timeout (1 s) from there.
        #expect(test.host.nextDeadline == t0 + 3)

        test.now = t0 + 2.5
        #expect(test.handle(Self.answer(added[0], at: test.now)).requests.isEmpty)
        #expect(test.status("w2").currentEntry.entry?.content["placeholder"] == "ahead")
        // The timeline runs from the placeholder's answer: timeline_timeout (5 s) from there.
        #expect(test.status("w2").reloadRunning)
        #expect(test.host.nextDeadline == t0 + 7.5)

        test.now = t0 + 3
        #expect(test.handle(Self.answer(added[1], at: test.now)).requests.isEmpty)
        #expect(test.status("w2").currentEntry.entry?.content["text"] == "new")
        #expect(test.status("w2").lastOutcome?.result == .success)
    }

    @Test("A placeholder written ahead that takes over 1 s from the answer before it is charged alone; its timeline goes to a fresh process")
    func placeholderBreach() {
        var (test, running) = Self.busy()
        let added = Self.add(&test).requests
        test.now = t0 + 2
        test.handle(Self.answer(running, at: test.now))
        // 1.9 s since it was written, 0.99 s since it ran: within its 1 s.
        test.advance(to: t0 + 2.99)
        #expect(!test.effects.contains { if case .kill = $0 { true } else { false } })
        let before = test.effects.count
        test.advance(to: t0 + 3)
        let after = Array(test.effects[before...])
        #expect(after.first == .kill(extension: birthdayExtension.id, reason: .timedOut))
        #expect(test.status("w1").lastOutcome?.result == .success)
        let diagnostic = test.status("w2").diagnostics.last
        #expect(diagnostic?.code == ReloadResultKind.timedOut.rawValue)
        #expect(diagnostic?.message.contains("no reply after 1.00s to placeholder/get (limits.placeholder_timeout") == true)
        // The timeline behind it was in the dead process's stdin: written again, same request.
        let resent = after.compactMap { if case .send(let request) = $0 { request } else { nil } }
        #expect(resent.map(\.id) == [added[1].id])
        #expect(test.status("w2").reloadRunning)
        #expect(test.host.nextDeadline == t0 + 8)
    }

    @Test("A fill behind a running reload: two requests a widget are written until 64 are ahead, then none until 32 are answered, then 32 in one write")
    func refill() {
        var (test, running) = Self.busy()
        var adds: [[ExtensionRequest]] = []
        for _ in 0..<60 { adds.append(Self.add(&test).requests) }
        #expect(adds.prefix(32).allSatisfy { $0.map(\.call.method) == [.placeholder, .timeline] })
        #expect(adds.dropFirst(32).allSatisfy { $0.isEmpty })

        // Answered in order, each at its own instant: what each answer's step writes.
        var order = [running] + adds.joined()
        var writes: [Int] = []
        var index = 0
        while index < order.count {
            test.now = t0 + Double(index + 1) / 100
            let written = test.handle(Self.answer(order[index], at: test.now)).requests
            writes.append(written.count)
            order += written
            // The next in line runs now, timed from this answer.
            if index + 1 < order.count {
                let next = order[index + 1]
                #expect(test.host.nextDeadline == test.now + (next.call.method == .placeholder ? 1 : 5))
            }
            index += 1
        }
        #expect(order.count == 121)
        #expect(Set(order.map(\.id)).count == 121)
        #expect(order.map(\.id.value) == order.map(\.id.value).sorted())
        // 65 out (one running, 64 ahead); the 32nd answer leaves 32 ahead: 32 more in one
        // write; the 64th the last 24.
        #expect(writes.enumerated().filter { $0.element > 0 }.map(\.offset) == [31, 63])
        #expect(writes[31] == 32 && writes[63] == 24)
        for n in 2...61 {
            #expect(test.status(WidgetID("w\(n)")).currentEntry.entry?.content["text"] == "new")
        }
    }

    static let pipelinedIntents: ExtensionDescriptor = {
        var descriptor = intentExtension
        descriptor.pipelining = true
        return descriptor
    }()

    @Test("An intent is never written ahead: it, and what follows it, waits its turn; entry requests behind it go ahead once it runs")
    func intentWaits() {
        var hold = false
        var test = TestHost(extensions: [Self.pipelinedIntents]) { params in
            hold ? .hold : .timeline(TimelinePayload(entries: [habitEntry(at: params.now)], policy: .never))
        }
        for _ in 0..<3 { test.add("HabitWidget") }
        hold = true
        test.holdEntries = true
        test.intents = { _ in nil }
        let first = test.handle(.reloadRequested(ReloadRequest(.widget("w1")))).requests
        #expect(first.map(\.call.method) == [.timeline])
        let tap = test.handle(.tapped(TapRequest(widget: "w2", button: "b1")))
        #expect(tap.requests.isEmpty)
        let snapshot = test.handle(.snapshotRequested("w3", isPreview: true))
        #expect(snapshot.requests.isEmpty)  // behind the intent
        let next = test.handle(PipeliningTests.reply(first[0], at: t0)).requests
        #expect(next.map(\.call.method) == [.intentPerform, .snapshot])
        #expect(next.map(\.widget) == ["w2", "w3"])
    }
}
