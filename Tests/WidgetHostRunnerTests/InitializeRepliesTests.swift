import Testing
import WidgetHostCore
import WidgetHostProtocol

@testable import WidgetHostRunner

/// Every process of a bundle answers `initialize` with the same line; a cold reload starts a
/// process each time, so a line seen before is not decoded again (`InitializeReplies`).
@Suite("initialize answers already decoded")
struct InitializeRepliesTests {
    private func answer(kind: String) -> [UInt8] {
        let widget = #"{"kind":"\#(kind)","displayName":"K","description":"d","supportedFamilies":["systemSmall"]}"#
        return Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"pipelining":true,"widgets":[\#(widget)]}}"#.utf8)
    }

    private func started() -> ExtensionSession {
        var session = ExtensionSession(limits: ExtensionLimits())
        _ = session.start()
        return session
    }

    @Test("A second process's answer, byte for byte the first's, reports the same catalog; another line is decoded anew")
    func sameBytesSameCatalog() throws {
        let kind = "K\(UInt64.random(in: 0...UInt64.max))"
        let line = answer(kind: kind)
        #expect(InitializeReplies.shared.result(for: line) == nil)
        var first = started()
        let firstActions = first.receive(stdout: line + [10])
        guard case .initialized(.success(let decoded))? = firstActions.first, firstActions.count == 1 else {
            Issue.record("\(firstActions)")
            return
        }
        #expect(decoded.widgets.map(\.kind) == [kind] && decoded.pipelining == true)
        #expect(InitializeReplies.shared.result(for: line) == decoded)

        // The next process: the same line, the same answer, and the request behind it still
        // matched in order.
        var second = started()
        _ = second.send(RequestID(9), FixtureExtension.timeline)
        let reply = #"{"jsonrpc":"2.0","id":9,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","content":{"text":"x"}}],"policy":{"type":"atEnd"}}}"#
        let actions = second.receive(stdout: line + [10] + Array(reply.utf8) + [10])
        #expect(actions.first == .initialized(.success(decoded)))
        guard actions.count == 2, case .replied(RequestID(9), .timeline(let payload, _)) = actions[1] else {
            Issue.record("\(actions)")
            return
        }
        #expect(payload.entries.count == 1)
        #expect(!second.isAwaitingAnswer)

        // A catalog that changed is another line: decoded, not served from the first.
        let changed = answer(kind: kind + "-2")
        var third = started()
        guard case .initialized(.success(let other))? = third.receive(stdout: changed + [10]).first else {
            Issue.record("the changed catalog was not decoded")
            return
        }
        #expect(other.widgets.map(\.kind) == [kind + "-2"])
    }

    @Test("A line of the same length that differs in one byte is another line")
    func sameLengthOtherBytes() {
        let kind = "K\(UInt64.random(in: 0...UInt64.max))"
        let line = answer(kind: kind + "a")
        let other = answer(kind: kind + "b")
        #expect(line.count == other.count)
        InitializeReplies.shared.remember(InitializeResult(widgets: []), for: line)
        #expect(InitializeReplies.shared.result(for: line) == InitializeResult(widgets: []))
        #expect(InitializeReplies.shared.result(for: other) == nil)
        #expect(InitializeReplies.shared.result(for: Array(line)) != nil)
    }

    @Test("A line remembered again is kept once, the newest answer wins, and no more than the limit are kept")
    func keptOnceAndBounded() {
        let replies = InitializeReplies()
        let line = answer(kind: "Once")
        replies.remember(InitializeResult(widgets: []), for: line)
        replies.remember(InitializeResult(widgets: [], pipelining: true), for: line)
        #expect(replies.count == 1)
        #expect(replies.result(for: line)?.pipelining == true)
        for number in 0..<(InitializeReplies.limit * 2) {
            replies.remember(InitializeResult(widgets: []), for: answer(kind: "K\(number)"))
            #expect(replies.count <= InitializeReplies.limit)
        }
        #expect(replies.result(for: answer(kind: "K\(InitializeReplies.limit * 2 - 1)")) != nil)
        #expect(replies.result(for: []) == nil)
    }

    @Test("An answer that does not decode fails initialize every time and is never kept")
    func failuresNotKept() {
        let line = Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":"none \#(UInt64.random(in: 0...UInt64.max))"}}"#.utf8)
        for _ in 0..<2 {
            var session = started()
            _ = session.send(RequestID(1), FixtureExtension.timeline)
            let actions = session.receive(stdout: line + [10])
            guard case .initialized(.failure)? = actions.first else {
                Issue.record("\(actions)")
                return
            }
            #expect(actions.contains { if case .failed(RequestID(1), _) = $0 { true } else { false } })
        }
        #expect(InitializeReplies.shared.result(for: line) == nil)
    }
}
