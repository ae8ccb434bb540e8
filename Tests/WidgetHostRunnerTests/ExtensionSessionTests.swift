import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// The extension channel from the host's side, without a process: bytes in, actions out.
@Suite("The extension session")
struct ExtensionSessionTests {
    private let entry = #"{"date":"2026-02-15T08:00:00Z","content":{"text":"x"}}"#

    private func started() -> ExtensionSession {
        var session = ExtensionSession(limits: ExtensionLimits())
        _ = session.start()
        return session
    }

    private func lines(_ actions: [ExtensionSession.Action]) -> [JSONRPCMessage.Parsed] {
        actions.compactMap { if case .write(let bytes) = $0 { JSONRPCMessage.parse(bytes.dropLast()) } else { nil } }
    }

    @Test("initialize goes first; a request follows with its id, method and params")
    func initializeFirst() throws {
        var session = ExtensionSession(limits: ExtensionLimits())
        let first = lines(session.start())
        #expect(first == [.message(.request(id: .string("initialize-1"), method: "initialize", params: ["protocolVersion": .integer(protocolVersion)]))])
        #expect(session.isAwaitingInitialize)
        let request = lines(session.send(RequestID(7), .placeholder(PlaceholderParams(kind: "K", family: .systemSmall))))
        #expect(request == [.message(.request(id: .number(7), method: "placeholder/get", params: ["kind": "K", "family": "systemSmall"]))])
        #expect(session.runningRequest == RequestID(7))
    }

    @Test("A request's line is written from its params: the line JSONRPCMessage writes, for each kind of request")
    func requestLines() throws {
        let environment = ViewEnvironment(colorScheme: .dark, displayScale: 2, locale: "de_CH")
        let calls: [ExtensionRequest.Call] = [
            .placeholder(PlaceholderParams(kind: "K", family: .systemSmall, environment: environment)),
            .snapshot(SnapshotParams(kind: "K", family: .systemLarge, isPreview: true, configuration: ["n": .integer(2)])),
            .timeline(
                TimelineParams(
                    kind: "K", family: .accessoryInline, widgetId: "w12", now: Date(timeIntervalSince1970: 1_771_113_600.5),
                    environment: environment, configuration: ["city": .string("Zürich")])),
        ]
        for (index, call) in calls.enumerated() {
            var session = started()
            let params: JSONValue =
                switch call {
                case .placeholder(let value): try JSONValue(encoding: value)
                case .snapshot(let value): try JSONValue(encoding: value)
                case .timeline(let value): try JSONValue(encoding: value)
                default: .null
                }
            let expected = try JSONRPCMessage.request(id: .number(index + 5), method: call.method.rawValue, params: params).encodedLine()
            #expect(session.send(RequestID(index + 5), call) == [.write(Array(expected))])
        }
    }

    @Test("initialize's answer is reported with the widgets it lists")
    func initializeAnswer() {
        var session = started()
        let widget = #"{"kind":"K","displayName":"K","description":"d","supportedFamilies":["systemSmall"]}"#
        let actions = session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[\#(widget)]}}"#.utf8 + [10]))
        guard case .initialized(.success(let result))? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(result.widgets.map(\.kind) == ["K"])
        #expect(!session.isAwaitingAnswer)
    }

    @Test("A reply is matched by id and decoded; a timeline carries the size of its line")
    func replyMatched() {
        var session = started()
        _ = session.send(RequestID(3), FixtureExtension.timeline)
        let line = #"{"jsonrpc":"2.0","id":3,"result":{"entries":[\#(entry)],"policy":{"type":"atEnd"}}}"#
        // Split mid-line: framing waits for the newline.
        #expect(session.receive(stdout: Array(line.utf8.prefix(10))).isEmpty)
        let actions = session.receive(stdout: Array(line.utf8.dropFirst(10)) + [10])
        guard case .replied(RequestID(3), .timeline(let payload, let byteCount))? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(payload.entries.count == 1)
        #expect(byteCount == line.utf8.count)
        #expect(session.runningRequest == nil)
    }

    @Test(
        "Lines that break the protocol fail the running request as protocolError, saying what was wrong",
        arguments: [
            (#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}"#,
             "timeline/get answered with error -32601: Method not found"),
            (#"{"jsonrpc":"2.0","id":3,"result":{"entries":"none"}}"#,
             "timeline/get reply does not match the protocol: entries should be Array"),
            (#"{"jsonrpc":"2.0","id":4,"result":{}}"#, "reply for unknown id 4; the running request is 3"),
            ("{not json", "stdout line is not a JSON-RPC message"),
        ])
    func protocolErrors(line: String, detail: String) {
        var session = started()
        _ = session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[]}}"#.utf8 + [10]))
        _ = session.send(RequestID(3), FixtureExtension.timeline)
        let actions = session.receive(stdout: Array(line.utf8) + [10])
        guard case .failed(RequestID(3), .protocolError(let message))? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(message.contains(detail), "\(message)")
        // Condemned: a correct reply afterwards counts for nothing.
        #expect(session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":3,"result":{}}"#.utf8) + [10]).isEmpty)
    }

    @Test("An error answer to initialize fails initialize and the request sent behind it")
    func initializeError() {
        var session = started()
        _ = session.send(RequestID(1), FixtureExtension.timeline)
        let actions = session.receive(
            stdout: Array(#"{"jsonrpc":"2.0","id":"initialize-1","error":{"code":-32603,"message":"boom"}}"#.utf8) + [10])
        #expect(actions == [
            .initialized(.failure(.protocolError("initialize answered with error -32603: boom"))),
            .failed(RequestID(1), .protocolError("initialize answered with error -32603: boom")),
        ])
    }

    @Test("A reply while nothing runs stops the process: its next stray line would be charged to the next request")
    func strayReply() {
        var session = started()
        _ = session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[]}}"#.utf8) + [10])
        let actions = session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":1,"result":{}}"#.utf8) + [10])
        #expect(actions == [.stop(reason: "reply with id 1 while no request was running; stopping the extension")])
    }

    @Test("Requests and notifications from the extension, and garbage while idle, are only noted")
    func notes() {
        var session = started()
        _ = session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[]}}"#.utf8) + [10])
        #expect(session.receive(stdout: Array(#"{"jsonrpc":"2.0","method":"log"}"#.utf8) + [10])
            == [.note("ignored message \"log\" from the extension")])
        guard case .note(let text)? = session.receive(stdout: Array("garbage\n".utf8)).first else {
            Issue.record("no note")
            return
        }
        #expect(text.hasPrefix("invalid stdout line: "))
    }

    @Test("stderr comes as lines; a huge one is summarized; a half reply at the end of stdout is noted")
    func stderrAndEnd() {
        var session = started()
        #expect(session.receive(stderr: Array("one\ntwo".utf8)) == [.stderr("one")])
        #expect(session.endOfStderr() == [.stderr("two")])
        var other = started()
        #expect(other.receive(stderr: [UInt8](repeating: 65, count: 70_000) + [10]) == [.stderr("[70000 bytes on one stderr line, not shown]")])
        _ = other.receive(stdout: Array(#"{"jsonrpc":"2.0","id":1,"res"#.utf8))
        #expect(other.endOfStdout() == [.stderr("[stdout ended with 28 bytes of an unfinished line]")])
    }

    @Test("A reply still in the pipe when the process exited counts; the exit then fails nothing")
    func replyBeforeExit() {
        var session = started()
        _ = session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[]}}"#.utf8) + [10])
        _ = session.send(RequestID(2), .snapshot(SnapshotParams(kind: "K", family: .systemSmall, isPreview: true)))
        let reply = session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":2,"result":\#(entry)}"#.utf8) + [10])
        #expect(reply.count == 1)
        #expect(session.exited(.exited(0)).isEmpty)
    }

    @Test("An exit while a request runs is crashed; a kernel memory kill is memoryLimitExceeded")
    func exits() {
        var crashed = started()
        _ = crashed.send(RequestID(1), FixtureExtension.timeline)
        #expect(crashed.exited(.signaled(9)).last
            == .failed(RequestID(1), .crashed("killed by signal 9 (Killed) before answering timeline/get")))
        var killed = started()
        _ = killed.send(RequestID(1), FixtureExtension.timeline)
        #expect(killed.exited(.signaled(9), memoryKillFootprint: 31_600_000).last
            == .failed(RequestID(1), .memoryLimitExceeded(footprintBytes: 31_600_000)))
    }

    @Test("After the host gives up on a request, nothing the process says is charged to it")
    func abandon() {
        var session = started()
        _ = session.send(RequestID(1), FixtureExtension.timeline)
        session.abandon()
        #expect(session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":1,"result":{}}"#.utf8) + [10]).isEmpty)
        #expect(session.exited(.exited(1)).isEmpty)
    }

    @Test("Requests written ahead run in order: replies in one read are matched one after the other; only the running one fails")
    func writtenAhead() {
        var session = started()
        _ = session.receive(stdout: Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[]}}"#.utf8) + [10])
        for id in 1...3 { _ = session.send(RequestID(id), FixtureExtension.timeline) }
        #expect(session.runningRequest == RequestID(1))
        let reply = { (id: Int) in #"{"jsonrpc":"2.0","id":\#(id),"result":{"entries":[\#(entry)],"policy":{"type":"atEnd"}}}"# }
        let actions = session.receive(stdout: Array((reply(1) + "\n" + reply(2) + "\n").utf8))
        #expect(actions.map { if case .replied(let id, _) = $0 { id.value } else { -1 } } == [1, 2])
        #expect(session.runningRequest == RequestID(3))
        // An exit fails the running request only: what was behind it is the core's to send again.
        #expect(session.exited(.signaled(9)) == [.failed(RequestID(3), .crashed("killed by signal 9 (Killed) before answering timeline/get"))])

        // A reply out of order is a protocol error of the running request.
        var other = started()
        _ = other.receive(stdout: Array(#"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[]}}"#.utf8) + [10])
        for id in 1...2 { _ = other.send(RequestID(id), FixtureExtension.timeline) }
        let outOfOrder = other.receive(stdout: Array((reply(2) + "\n").utf8))
        #expect(outOfOrder == [.failed(RequestID(1), .protocolError("reply for unknown id 2; the running request is 1"))])
        #expect(other.runningRequest == nil)
    }
}
