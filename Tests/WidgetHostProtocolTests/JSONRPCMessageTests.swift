import Foundation
import Testing
import WidgetHostProtocol

@Suite("Classifying and writing JSON-RPC lines")
struct JSONRPCMessageTests {
    private func parse(_ text: String) -> JSONRPCMessage.Parsed {
        JSONRPCMessage.parse(Array(text.utf8))
    }

    /// The error a line is rejected with, and the id it kept.
    private func rejection(_ text: String) -> (id: JSONRPCID?, error: JSONRPCError)? {
        guard case .invalid(let id, let error) = parse(text) else { return nil }
        return (id, error)
    }

    // MARK: Valid messages

    @Test("A plain result decodes in one pass; anything parse would treat otherwise is left to it")
    func decodeResult() throws {
        let timeline = #"{"entries":[{"date":"2026-02-15T08:00:00Z","content":{"n":1}}],"policy":{"type":"never"}}"#
        let line = { (text: String) in Array(text.utf8) }
        let plain = JSONRPCMessage.decodeResult(line(#"{"jsonrpc":"2.0","id":7,"result":\#(timeline)}"#), as: TimelinePayload.self)
        #expect(plain?.id == .number(7))
        #expect(plain?.result.entries.first?.content == ["n": 1])
        #expect(plain?.result.policy == .never)
        // Fractions and \u escapes (Foundation's reader, not the plain one), a string id.
        let rich = #"{"jsonrpc":"2.0","id":"r","result":{"entries":[{"date":"2026-02-15T08:00:00.5Z","relevance":{"score":0.25},"content":{"t":"\u00e9"}}],"policy":{"type":"atEnd"}}}"#
        let decoded = JSONRPCMessage.decodeResult(line(rich), as: TimelinePayload.self)
        #expect(decoded?.id == .string("r"))
        #expect(decoded?.result.entries.first?.content == ["t": "é"])
        #expect(decoded?.result.entries.first?.relevance?.score == 0.25)
        for text in [
            #"{"jsonrpc":"2.0","id":7,"result":\#(timeline),"error":{"code":1,"message":"m"}}"#,  // an error response
            #"{"jsonrpc":"2.0","id":7,"method":"m","result":\#(timeline)}"#,  // a request
            #"{"jsonrpc":"1.0","id":7,"result":\#(timeline)}"#,
            #"{"jsonrpc":"2.0","id":7,"result":\#(timeline),}"#,  // a trailing comma
            #"{"jsonrpc":"2.0","id":7,"result":{"entries":[]}}"#,  // no policy
            #"{"jsonrpc":"2.0","result":\#(timeline)}"#,  // no id
            #"{"jsonrpc":"2.0","id":null,"result":\#(timeline)}"#,  // a null id
            #"{"jsonrpc":"2.0","id":[7],"result":\#(timeline)}"#,
            #"{"jsonrpc":"2.0","id":7,"result":{"entries":[{"date":"yesterday"}],"policy":{"type":"never"}}}"#,
            #"{"jsonrpc":"2.0","id":7,"result":null}"#,
            #"[1]"#, "not json", "",
        ] {
            #expect(JSONRPCMessage.decodeResult(line(text), as: TimelinePayload.self) == nil, "\(text)")
        }
    }

    @Test("A request with object params, array params or none")
    func requests() {
        #expect(
            parse(#"{"jsonrpc":"2.0","id":1,"method":"timeline/get","params":{"kind":"K"}}"#)
                == .message(.request(id: .number(1), method: "timeline/get", params: ["kind": "K"])))
        #expect(
            parse(#"{"jsonrpc":"2.0","id":"a-1","method":"m","params":[1,"two"]}"#)
                == .message(.request(id: .string("a-1"), method: "m", params: [1, "two"])))
        #expect(
            parse(#"{"method":"initialize","id":0,"jsonrpc":"2.0"}"#)
                == .message(.request(id: .number(0), method: "initialize", params: nil)))
    }

    @Test("A message without an id, or with a null id, is a notification")
    func notifications() {
        #expect(
            parse(#"{"jsonrpc":"2.0","method":"event","params":{"n":1}}"#)
                == .message(.notification(method: "event", params: ["n": 1])))
        #expect(parse(#"{"jsonrpc":"2.0","id":null,"method":"event"}"#) == .message(.notification(method: "event", params: nil)))
    }

    @Test("A response carries any result, null included")
    func responses() {
        #expect(
            parse(#"{"jsonrpc":"2.0","id":7,"result":{"widgets":[]}}"#)
                == .message(.response(id: .number(7), result: ["widgets": []])))
        #expect(parse(#"{"jsonrpc":"2.0","id":"x","result":null}"#) == .message(.response(id: .string("x"), result: .null)))
    }

    @Test("An error response, with an id or with null for a line that had none")
    func errorResponses() {
        #expect(
            parse(#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: x","data":{"field":"kind"}}}"#)
                == .message(
                    .errorResponse(
                        id: .number(3),
                        error: JSONRPCError(code: -32602, message: "Invalid params: x", data: ["field": "kind"]))))
        #expect(
            parse(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#)
                == .message(.errorResponse(id: nil, error: JSONRPCError(code: -32700, message: "Parse error"))))
    }

    @Test("Unknown fields are ignored")
    func unknownFields() {
        #expect(
            parse(#"{"jsonrpc":"2.0","id":1,"method":"m","trace":"abc","extra":{"a":[1]}}"#)
                == .message(.request(id: .number(1), method: "m", params: nil)))
    }

    // MARK: Invalid lines

    @Test("Bytes that are not JSON are -32700 with no id", arguments: [
        "", "{", "not json", #"{"jsonrpc":"2.0","id":1,"method":"m""#, "{\"a\":1}}", "\u{FEFF}", "[1 2]", "{'a':1}",
    ])
    func invalidJSON(text: String) throws {
        let (id, error) = try #require(rejection(text))
        #expect(id == nil)
        #expect(error.code == JSONRPCError.parseErrorCode)
        #expect(error.message == "Parse error: the line is not valid JSON")
    }

    @Test("A trailing comma (which Foundation's reader accepts) is -32700, naming where it is", arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"status",}"#, #"{"jsonrpc":"2.0","id":1,"method":"m","params":[1,2, ]}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":1,}}}"#,
    ])
    func trailingComma(text: String) throws {
        let (_, error) = try #require(rejection(text))
        #expect(error.code == JSONRPCError.parseErrorCode)
        #expect(error.message.contains("a comma before } or ] at byte"), "\(error.message)")
    }

    @Test("Commas, brackets and escaped quotes inside strings are content, not syntax")
    func commasInStrings() {
        let text = #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":",}","b":"\",]","c":[1,2]}}"#
        guard case .message(.request(_, let method, _)) = parse(text) else {
            Issue.record("\(parse(text))")
            return
        }
        #expect(method == "m")
    }

    @Test("Invalid UTF-8 is -32700")
    func invalidUTF8() throws {
        guard case .invalid(nil, let error) = JSONRPCMessage.parse([0x7B, 0xFF, 0xFE, 0x7D]) else {
            Issue.record("expected a parse error")
            return
        }
        #expect(error.code == -32700)
    }

    @Test("On the extension channel a batch (an array) is -32600: batches are not supported there")
    func batch() throws {
        let (id, error) = try #require(rejection(#"[{"jsonrpc":"2.0","id":1,"method":"m"}]"#))
        #expect(id == nil)
        #expect(error.code == JSONRPCError.invalidRequestCode)
        #expect(error.message == "Invalid request: batches are not supported; send one object per line")
    }

    @Test("A scalar is -32600", arguments: ["3", #""text""#, "true", "null"])
    func scalar(text: String) throws {
        let (id, error) = try #require(rejection(text))
        #expect(id == nil)
        #expect(error.code == -32600)
        #expect(error.message == "Invalid request: expected a JSON object")
    }

    @Test("A missing or wrong jsonrpc is -32600, keeping the id", arguments: [
        #"{"id":4,"method":"m"}"#, #"{"jsonrpc":"1.0","id":4,"method":"m"}"#, #"{"jsonrpc":2.0,"id":4,"method":"m"}"#,
    ])
    func jsonrpcVersion(text: String) throws {
        let (id, error) = try #require(rejection(text))
        #expect(id == .number(4))
        #expect(error.code == -32600)
        #expect(error.message == #"Invalid request: "jsonrpc" must be "2.0""#)
    }

    @Test("A method that is not a string is -32600, keeping the id", arguments: [
        #"{"jsonrpc":"2.0","id":"r","method":5}"#, #"{"jsonrpc":"2.0","id":"r","method":null}"#,
        #"{"jsonrpc":"2.0","id":"r","method":["m"]}"#,
    ])
    func methodNotString(text: String) throws {
        let (id, error) = try #require(rejection(text))
        #expect(id == .string("r"))
        #expect(error.code == -32600)
        #expect(error.message == #"Invalid request: "method" must be a string"#)
    }

    @Test("An id that is neither a number nor a string is -32600 with no id", arguments: [
        #"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#, #"{"jsonrpc":"2.0","id":true,"method":"m"}"#,
        #"{"jsonrpc":"2.0","id":{"n":1},"method":"m"}"#, #"{"jsonrpc":"2.0","id":[1],"method":"m"}"#,
    ])
    func badID(text: String) throws {
        let (id, error) = try #require(rejection(text))
        #expect(id == nil)
        #expect(error.code == -32600)
        #expect(error.message == #"Invalid request: "id" must be a number or a string"#)
    }

    @Test("Params that are neither an object nor an array are -32600", arguments: [
        #"{"jsonrpc":"2.0","id":2,"method":"m","params":"kind"}"#, #"{"jsonrpc":"2.0","id":2,"method":"m","params":3}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"m","params":null}"#, #"{"jsonrpc":"2.0","id":2,"method":"m","params":false}"#,
    ])
    func badParams(text: String) throws {
        let (id, error) = try #require(rejection(text))
        #expect(id == .number(2))
        #expect(error.code == -32600)
        #expect(error.message == #"Invalid request: "params" must be an object or an array"#)
    }

    @Test("An error object without a code and message is -32600")
    func badErrorObject() throws {
        let (id, error) = try #require(rejection(#"{"jsonrpc":"2.0","id":9,"error":"it broke"}"#))
        #expect(id == .number(9))
        #expect(error.code == -32600)
        #expect(error.message == #"Invalid request: "error" must have a numeric code and a message"#)
    }

    @Test("A result without an id is -32600")
    func responseWithoutID() throws {
        let (id, error) = try #require(rejection(#"{"jsonrpc":"2.0","result":{}}"#))
        #expect(id == nil)
        #expect(error.message == #"Invalid request: a response needs an "id""#)
    }

    @Test("An object with none of method, result or error is -32600")
    func nothingToDo() throws {
        let (id, error) = try #require(rejection(#"{"jsonrpc":"2.0","id":1}"#))
        #expect(id == .number(1))
        #expect(error.message == #"Invalid request: expected "method", "result" or "error""#)
    }

    // MARK: Writing

    static let messages: [JSONRPCMessage] = [
        .request(id: .number(1), method: "timeline/get", params: ["kind": "K", "note": "two\nlines"]),
        .request(id: .string("id with \"quotes\""), method: "m", params: nil),
        .notification(method: "event", params: [1, 2.5, nil, true]),
        .response(id: .number(-4), result: ["entries": [], "policy": ["type": "never"]]),
        .response(id: .number(5), result: .null),
        .errorResponse(id: .number(6), error: .methodNotFound("x", known: ["a", "b"])),
        .errorResponse(id: nil, error: .parseError("the line is not valid JSON")),
        .errorResponse(id: .string("s"), error: JSONRPCError(code: -32000, message: "refused", data: ["why": "budget"])),
    ]

    @Test("encodedLine() is one line ending in a newline that parses back to the same message", arguments: messages)
    func encodedLineRoundTrip(message: JSONRPCMessage) throws {
        let line = try message.encodedLine()
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1)
        #expect(JSONRPCMessage.parse(line.dropLast()) == .message(message))
    }

    @Test("encodedLine() writes the same bytes every time (sorted keys) and a null id as null")
    func encodedLineBytes() throws {
        let line = try JSONRPCMessage.errorResponse(id: nil, error: JSONRPCError(code: -32700, message: "Parse error: x"))
            .encodedLine()
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"{"error":{"code":-32700,"message":"Parse error: x"},"id":null,"jsonrpc":"2.0"}"# + "\n")
        let request = try JSONRPCMessage.encodingRequest(
            id: .number(1), method: "placeholder/get", params: PlaceholderParams(kind: "K", family: .systemSmall))
        #expect(
            String(decoding: try request.encodedLine(), as: UTF8.self)
                == #"{"id":1,"jsonrpc":"2.0","method":"placeholder/get","params":{"family":"systemSmall","kind":"K"}}"# + "\n")
    }

    @Test("The standard errors carry their codes and say what to do")
    func standardErrors() {
        #expect(JSONRPCError.parseError("x").code == -32700)
        #expect(JSONRPCError.invalidRequest("x").code == -32600)
        #expect(JSONRPCError.methodNotFound("x", known: []).code == -32601)
        #expect(JSONRPCError.invalidParams("x").code == -32602)
        let tooLong = JSONRPCError.lineTooLong(limit: 1_048_576)
        #expect(tooLong.code == -32600)
        #expect(tooLong.message == "Invalid request: line longer than 1048576 bytes was discarded; send one JSON object per line")
    }
}
