import Foundation
import Testing
import WidgetHostProtocol

/// The control channel's lines: one message, or a batch (JSON-RPC 2.0, section 6).
@Suite("Classifying control lines: single messages and batches")
struct JSONRPCLineTests {
    private func parse(_ text: String, maxBatch: Int = JSONRPCLine.defaultMaxBatch) -> JSONRPCLine {
        JSONRPCLine.parse(Array(text.utf8), maxBatch: maxBatch)
    }

    @Test("An object is a single message, classified as JSONRPCMessage.parse classifies it")
    func single() {
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"status","params":{"id":"w1"}}"#,
            #"{"jsonrpc":"2.0","method":"recordView","params":{"id":"w1"}}"#,
            #"{"jsonrpc":"1.0","id":1,"method":"status"}"#,
            #"{"jsonrpc":"2.0","method":1,"params":"bar"}"#,
            "3",
        ]
        for line in lines {
            #expect(parse(line) == .single(JSONRPCMessage.parse(Array(line.utf8))), "\(line)")
        }
    }

    @Test("A batch's members are classified one by one, in order")
    func batch() {
        let line = #"[{"jsonrpc":"2.0","id":"1","method":"status"},{"jsonrpc":"2.0","method":"recordView","params":{"id":"w1"}},{"foo":"boo"},{"jsonrpc":"2.0","id":"5","method":"foo.get","params":{"name":"myself"}}]"#
        #expect(
            parse(line)
                == .batch([
                    .message(.request(id: .string("1"), method: "status", params: nil)),
                    .message(.notification(method: "recordView", params: ["id": "w1"])),
                    .invalid(id: nil, error: .invalidRequest(#""jsonrpc" must be "2.0""#)),
                    .message(.request(id: .string("5"), method: "foo.get", params: ["name": "myself"])),
                ]))
    }

    @Test("Each invalid member gets its own -32600 with no id", arguments: [
        ("[1]", 1), ("[1,2,3]", 3), (#"[null,"x",[],[{}]]"#, 4),
    ])
    func invalidMembers(text: String, count: Int) {
        guard case .batch(let members) = parse(text) else {
            Issue.record("expected a batch")
            return
        }
        #expect(members == Array(repeating: .invalid(id: nil, error: .invalidRequest("expected a JSON object")), count: count))
    }

    @Test("An invalid member keeps its id where it has a usable one")
    func invalidMemberKeepsID() {
        #expect(
            parse(#"[{"jsonrpc":"1.0","id":7,"method":"status"}]"#)
                == .batch([.invalid(id: .number(7), error: .invalidRequest(#""jsonrpc" must be "2.0""#))]))
    }

    @Test("An empty array is a single -32600, not an empty batch")
    func empty() {
        #expect(parse("[]") == .single(.invalid(id: nil, error: .invalidRequest("an empty batch; send at least one request in the array"))))
        #expect(parse(" [ ] ") == parse("[]"))
    }

    @Test("Invalid JSON is one -32700 for the whole line, batch or not")
    func invalidJSON() {
        let parseError = JSONRPCLine.single(.invalid(id: nil, error: .parseError("the line is not valid JSON")))
        #expect(parse(#"[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method""#) == parseError)
        #expect(parse(#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#) == parseError)
        guard case .single(.invalid(nil, let error)) = parse(#"[{"jsonrpc":"2.0","id":1,"method":"status"},]"#) else {
            Issue.record("a trailing comma in a batch is not a parse error")
            return
        }
        #expect(error.code == -32700)
    }

    @Test("A batch over the limit is one -32600 that names the limit; at the limit it is a batch", arguments: [1, 3, 100])
    func limit(maxBatch: Int) {
        let member = #"{"jsonrpc":"2.0","id":1,"method":"status"}"#
        let atLimit = "[" + Array(repeating: member, count: maxBatch).joined(separator: ",") + "]"
        let overLimit = "[" + Array(repeating: member, count: maxBatch + 1).joined(separator: ",") + "]"
        guard case .batch(let members) = parse(atLimit, maxBatch: maxBatch) else {
            Issue.record("a batch at the limit was refused")
            return
        }
        #expect(members.count == maxBatch)
        #expect(parse(overLimit, maxBatch: maxBatch) == .single(.invalid(id: nil, error: .batchTooLarge(maxBatch + 1, limit: maxBatch))))
        #expect(
            JSONRPCError.batchTooLarge(maxBatch + 1, limit: maxBatch).message
                == "Invalid request: a batch of \(maxBatch + 1) requests is over the limit of \(maxBatch) (control.max_batch); none was run; split it into batches of at most \(maxBatch)")
    }

    @Test("The default limit is 100")
    func defaultLimit() {
        #expect(JSONRPCLine.defaultMaxBatch == 100)
    }
}

@Suite("Collecting a batch's responses")
struct JSONRPCBatchResponsesTests {
    @Test("Responses answered out of order are written in the members' order, as one array on one line")
    func order() throws {
        var responses = JSONRPCBatchResponses(expecting: 3)
        #expect(!responses.isComplete)
        responses.answer(2, with: .response(id: .number(9), result: "last"))
        responses.answer(0, with: .errorResponse(id: nil, error: .invalidRequest("expected a JSON object")))
        #expect(!responses.isComplete)
        responses.answer(1, with: .response(id: .string("1"), result: 7))
        #expect(responses.isComplete)
        let line = try #require(try responses.encodedLine())
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(!line.dropLast().contains(UInt8(ascii: "\n")))
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"[{"error":{"code":-32600,"message":"Invalid request: expected a JSON object"},"id":null,"jsonrpc":"2.0"},{"id":"1","jsonrpc":"2.0","result":7},{"id":9,"jsonrpc":"2.0","result":"last"}]"#
                + "\n")
    }

    @Test("A batch with nothing to answer (notifications only) writes nothing")
    func nothing() throws {
        let responses = JSONRPCBatchResponses(expecting: 0)
        #expect(responses.isComplete)
        #expect(try responses.encodedLine() == nil)
    }

    @Test("The array parses back, member by member, as the responses it holds")
    func roundTrip() throws {
        var responses = JSONRPCBatchResponses(expecting: 2)
        responses.answer(0, with: .response(id: .number(1), result: ["subscribed": true]))
        responses.answer(1, with: .errorResponse(id: .number(2), error: .methodNotFound("fly", known: ["status"])))
        let line = try #require(try responses.encodedLine())
        guard case .batch(let members) = JSONRPCLine.parse(line.dropLast()) else {
            Issue.record("not an array")
            return
        }
        #expect(
            members == [
                .message(.response(id: .number(1), result: ["subscribed": true])),
                .message(.errorResponse(id: .number(2), error: .methodNotFound("fly", known: ["status"]))),
            ])
    }
}
