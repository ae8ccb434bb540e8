import Foundation
import SeededRandom
import WidgetHostProtocol

/// Seeded fuzz lines for the control socket, each with the reply docs/protocol.md promises.
/// Expectations come from how each line was built, not from the daemon's own parser.
struct FuzzLineGenerator {
    private var nextID = 1

    /// Valid requests that answer at once with a result and change nothing.
    static let readMethods = [
        #"{"jsonrpc":"2.0","id":ID,"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":ID,"method":"status","params":{}}"#,
        #"{"jsonrpc":"2.0","id":ID,"method":"extensions"}"#,
        #"{"jsonrpc":"2.0","id":ID,"method":"getCurrentConfigurations","params":{"app":"com.fixture"}}"#,
        #"{"params":{},"method":"getCurrentConfigurations","id":ID,"jsonrpc":"2.0","extra":[1,{"x":null}]}"#,
    ]

    /// Known methods with params of the wrong shape: -32602, naming the method.
    static let wrongParams: [(String, String)] = [
        (#"{"jsonrpc":"2.0","id":ID,"method":"reloadTimelines","params":{}}"#, "reloadTimelines"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"reloadTimelines","params":{"kind":5}}"#, "reloadTimelines"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"reloadTimelines","params":{"kind":"WellBehavedWidget","foreground":"yes"}}"#, "foreground"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"reloadTimelines"}"#, "reloadTimelines needs params"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"reloadAllTimelines","params":{"app":7}}"#, "reloadAllTimelines"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"timeline","params":{}}"#, "timeline"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"timeline","params":{"id":[]}}"#, "timeline"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"status","params":{"id":5}}"#, "status"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"status","params":[1,2]}"#, "status"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"recordView","params":{"id":true}}"#, "recordView"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"addWidget","params":{"kind":"WellBehavedWidget","family":"huge"}}"#, "family"),
        (#"{"jsonrpc":"2.0","id":ID,"method":"removeWidget","params":{"id":{}}}"#, "removeWidget"),
    ]

    /// Well-formed requests the host's rules refuse: -32000.
    static let refused = [
        #"{"jsonrpc":"2.0","id":ID,"method":"status","params":{"id":"w404"}}"#,
        #"{"jsonrpc":"2.0","id":ID,"method":"timeline","params":{"id":"w404"}}"#,
        #"{"jsonrpc":"2.0","id":ID,"method":"removeWidget","params":{"id":"w404"}}"#,
        #"{"jsonrpc":"2.0","id":ID,"method":"reloadTimelines","params":{"kind":"NoSuchWidget"}}"#,
        #"{"jsonrpc":"2.0","id":ID,"method":"addWidget","params":{"kind":"NoSuchWidget","family":"systemSmall"}}"#,
    ]

    /// Objects that are not valid requests: -32600, with the id echoed where it is usable.
    static let invalidRequests: [(String, Bool)] = [
        (#"{"id":ID,"method":"status"}"#, true),
        (#"{"jsonrpc":"1.0","id":ID,"method":"status"}"#, true),
        (#"{"jsonrpc":2.0,"id":ID,"method":"status"}"#, true),
        (#"{"jsonrpc":"2.0","id":ID,"method":5}"#, true),
        (#"{"jsonrpc":"2.0","id":ID,"method":null}"#, true),
        (#"{"jsonrpc":"2.0","id":ID,"method":{"name":"status"}}"#, true),
        (#"{"jsonrpc":"2.0","id":ID,"method":"status","params":"all"}"#, true),
        (#"{"jsonrpc":"2.0","id":ID,"method":"status","params":7}"#, true),
        (#"{"jsonrpc":"2.0","id":ID,"method":"status","params":null}"#, true),
        (#"{"jsonrpc":"2.0","id":ID}"#, true),
        (#"{"jsonrpc":"2.0","id":ID,"error":5}"#, true),
        (#"{"jsonrpc":"2.0","id":ID,"result":{"ok":true}}"#, false),
        (#"{"jsonrpc":"2.0","id":ID,"error":{"code":1,"message":"no"}}"#, false),
        (#"{"jsonrpc":"2.0","id":{"n":1},"method":"status"}"#, false),
        (#"{"jsonrpc":"2.0","id":[1],"method":"status"}"#, false),
        (#"{"jsonrpc":"2.0","id":true,"method":"status"}"#, false),
        (#"{"jsonrpc":"2.0","id":1.5,"method":"status"}"#, false),
        (#"{"jsonrpc":"2.0","id":99999999999999999999999,"method":"status"}"#, false),
        (#"{"jsonrpc":"2.0","id":1e300,"method":"status"}"#, false),
        (#"42"#, false), (#""status""#, false), (#"null"#, false), (#"true"#, false),
        (#"[]"#, false), (#"[ ]"#, false),
    ]

    /// Not JSON at all: -32700.
    static let malformed = [
        #"{jsonrpc:"2.0",id:1,method:"status"}"#,
        #"{'jsonrpc':'2.0','id':1,'method':'status'}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"status"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"status"} {"jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","id":NaN,"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"st\qtus"}"#,
        #"// a comment"#,
        #"{"jsonrpc":"2.0","id":01,"method":"status"}"#,
        #"{"jsonrpc":"2.0" "id":1}"#,
    ]

    mutating func next(using random: inout SeededGenerator) -> FuzzLine {
        let roll = Int.random(in: 0..<1000, using: &random)
        switch roll {
        case 0..<100: return valid(using: &random)
        case 100..<130: return notification(using: &random)
        case 130..<180:
            var line = valid(using: &random)
            line.category = "partial"
            line.pieces = Int.random(in: 2...4, using: &random)
            return line
        case 180..<330: return malformed(using: &random)
        case 330..<410: return binary(using: &random)
        case 410..<540: return invalidRequest(using: &random)
        case 540..<620: return unknownMethod(using: &random)
        case 620..<720: return wrongParams(using: &random)
        case 720..<770: return hugeID(using: &random)
        case 770..<785: return nested(using: &random)
        case 785..<786: return oversized(using: &random)
        case 786..<791: return halfLineThenClose(using: &random)
        case 791..<841: return batch(using: &random)
        default: return mutated(using: &random)
        }
    }

    private mutating func freshID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private func line(_ category: String, _ text: String, _ expectation: FuzzExpectation) -> FuzzLine {
        FuzzLine(category: category, bytes: Array(text.utf8), expectation: expectation)
    }

    private mutating func valid(using random: inout SeededGenerator) -> FuzzLine {
        let id = freshID()
        let template = Self.readMethods.randomElement(using: &random)!
        return line("valid", template.replacingOccurrences(of: "ID", with: "\(id)"), .result(.number(id)))
    }

    private mutating func notification(using random: inout SeededGenerator) -> FuzzLine {
        let text = Bool.random(using: &random)
            ? #"{"jsonrpc":"2.0","method":"status"}"#
            : #"{"jsonrpc":"2.0","id":null,"method":"reloadTimelines","params":{"kind":"NoSuchWidget"}}"#
        return line("notification", text, .none)
    }

    private mutating func malformed(using random: inout SeededGenerator) -> FuzzLine {
        if Bool.random(using: &random) {
            return line("malformed", Self.malformed.randomElement(using: &random)!, .error(-32700, nil, containing: "Parse error"))
        }
        // Any strict prefix of an object is unfinished JSON.
        let whole = Array(valid(using: &random).bytes)
        let cut = Int.random(in: 1..<whole.count, using: &random)
        return FuzzLine(category: "truncated", bytes: Array(whole[..<cut]), expectation: .error(-32700, nil, containing: "Parse error"))
    }

    private func binary(using random: inout SeededGenerator) -> FuzzLine {
        // 0xFF is never valid UTF-8, so the line cannot be JSON by accident.
        let count = Int.random(in: 0...300, using: &random)
        let bytes = [0xFF] + (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }.filter { $0 != 0x0A }
        return FuzzLine(category: "binary", bytes: bytes, expectation: .error(-32700, nil))
    }

    private mutating func invalidRequest(using random: inout SeededGenerator) -> FuzzLine {
        let (template, echoes) = Self.invalidRequests.randomElement(using: &random)!
        let id = freshID()
        return line(
            "invalid request", template.replacingOccurrences(of: "ID", with: "\(id)"),
            .error(-32600, echoes ? .number(id) : nil, containing: "Invalid request"))
    }

    private mutating func unknownMethod(using random: inout SeededGenerator) -> FuzzLine {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/._-$ éü€😀\"\\\t")
        var method = String((0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        if ControlMethod(rawValue: method) != nil { method += "!" }
        let id = freshID()
        let text = #"{"jsonrpc":"2.0","id":\#(id),"method":\#(Self.json(.string(method)))}"#
        return line("unknown method", text, .error(-32601, .number(id), containing: "known methods are"))
    }

    private mutating func wrongParams(using random: inout SeededGenerator) -> FuzzLine {
        let id = freshID()
        if Int.random(in: 0..<3, using: &random) == 0 {
            let template = Self.refused.randomElement(using: &random)!
            return line("refused", template.replacingOccurrences(of: "ID", with: "\(id)"), .error(-32000, .number(id)))
        }
        let (template, names) = Self.wrongParams.randomElement(using: &random)!
        return line(
            "wrong params", template.replacingOccurrences(of: "ID", with: "\(id)"),
            .error(-32602, .number(id), containing: names))
    }

    private func hugeID(using random: inout SeededGenerator) -> FuzzLine {
        let ids: [JSONRPCID] = [
            .number(Int.max), .number(Int.min), .number(0), .number(-1),
            .string(String(repeating: "x", count: Int.random(in: 1_000...20_000, using: &random))),
            .string("ü😀\u{0}\n\"\\"), .string(""),
        ]
        let id = ids.randomElement(using: &random)!
        let idJSON: String
        switch id {
        case .number(let number): idJSON = "\(number)"
        case .string(let string): idJSON = Self.json(.string(string))
        }
        return line("huge id", #"{"jsonrpc":"2.0","id":\#(idJSON),"method":"status"}"#, .result(id))
    }

    private mutating func nested(using random: inout SeededGenerator) -> FuzzLine {
        let id = freshID()
        // Foundation's JSON reader stops at 512 levels with "too many nested"; the request is one of them.
        let depth = Bool.random(using: &random) ? Int.random(in: 1...100, using: &random) : Int.random(in: 600...5_000, using: &random)
        let array = Bool.random(using: &random)
        let open = array ? "[" : #"{"a":"#
        let close = array ? "]" : "}"
        let params = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
        let wrapped = array ? #"{"z":\#(params)}"# : params
        let text = #"{"jsonrpc":"2.0","id":\#(id),"method":"status","params":\#(wrapped)}"#
        return line(depth <= 100 ? "nested" : "deeply-nested", text, depth <= 100 ? .result(.number(id)) : .error(-32700, nil))
    }

    /// A batch of 1–6 members: read requests, notifications and non-objects, answered in
    /// one array in order (notifications left out), or not at all if only notifications.
    private mutating func batch(using random: inout SeededGenerator) -> FuzzLine {
        var members: [String] = []
        var expected: [FuzzExpectation] = []
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let id = freshID()
                members.append(Self.readMethods.randomElement(using: &random)!.replacingOccurrences(of: "ID", with: "\(id)"))
                expected.append(.result(.number(id)))
            case 1:
                members.append(#"{"jsonrpc":"2.0","method":"status"}"#)
            default:
                members.append(["1", "null", #""x""#, "[]", #"{"foo":"boo"}"#].randomElement(using: &random)!)
                expected.append(.error(-32600, nil, containing: "Invalid request"))
            }
        }
        let text = "[" + members.joined(separator: ",") + "]"
        return line("batch", text, expected.isEmpty ? .none : .batch(expected))
    }

    private func oversized(using random: inout SeededGenerator) -> FuzzLine {
        let limit = 1024 * 1024
        let padding = String(repeating: "p", count: limit + Int.random(in: 1...65_536, using: &random))
        let text = #"{"jsonrpc":"2.0","id":1,"method":"status","params":{"pad":"\#(padding)"}}"#
        return line("oversized", text, .error(-32600, nil, containing: "line longer than \(limit) bytes"))
    }

    private mutating func halfLineThenClose(using random: inout SeededGenerator) -> FuzzLine {
        var line = valid(using: &random)
        line.bytes = Array(line.bytes.prefix(line.bytes.count / 2))
        line.category = "half line, then close"
        line.closesConnection = true
        return line
    }

    private mutating func mutated(using random: inout SeededGenerator) -> FuzzLine {
        let sources = Self.readMethods + Self.wrongParams.map(\.0) + Self.refused + Self.invalidRequests.map(\.0)
        var bytes = Array(sources.randomElement(using: &random)!.replacingOccurrences(of: "ID", with: "\(freshID())").utf8)
        for _ in 0..<Int.random(in: 1...5, using: &random) where bytes.count > 2 {
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: bytes[at] = Self.randomByte(using: &random)
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(Self.randomByte(using: &random), at: at)
            case 3: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 8)], at: at)
            default: bytes.swapAt(at, Int.random(in: 0..<bytes.count, using: &random))
            }
        }
        return FuzzLine(category: "mutated", bytes: bytes, expectation: .anyWellFormed)
    }

    /// Any byte but the newline; JSON's own punctuation more often than chance.
    private static func randomByte(using random: inout SeededGenerator) -> UInt8 {
        let punctuation = Array(#"{}[]":,\0123456789-.etruanl "#.utf8)
        if Bool.random(using: &random) { return punctuation.randomElement(using: &random)! }
        let byte = UInt8.random(in: 0...255, using: &random)
        return byte == 0x0A ? 0x20 : byte
    }

    static func json(_ value: JSONValue) -> String {
        String(decoding: (try? WireCoding.encode(value)) ?? Data(), as: UTF8.self)
    }
}
