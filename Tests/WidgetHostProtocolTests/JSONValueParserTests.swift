import Foundation
import SeededRandom
import Testing

@testable import WidgetHostProtocol

/// The plain-JSON reader in front of Foundation's: for any bytes it gives Foundation's value
/// or nothing, never a value of its own.
@Suite("Reading plain JSON lines without Foundation")
struct JSONValueParserTests {
    private func fast(_ text: String) -> JSONValue? {
        Array(text.utf8).withUnsafeBufferPointer(JSONValueParser.parse)
    }

    private func fast(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBufferPointer(JSONValueParser.parse)
    }

    private func foundation(_ bytes: [UInt8]) -> JSONValue? {
        try? WireCoding.decoder.decode(JSONValue.self, from: Data(bytes))
    }

    @Test("Plain lines are read, to the value Foundation gives", arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"status","params":{}}"#,
        #"{"jsonrpc":"2.0","id":"abc","method":"status","params":{"id":"w1"}}"#,
        #" { "a" : [ 1 , -2 , 0 , true , false , null , { } , [ ] ] , "b" : "" } "#,
        "\t{\"a\":\r\n\"x\"}\n",
        #"{"é":"ünïcödé ✓ 😀","n":123456789012345678,"m":-123456789012345678}"#,
        #"{"escapes":"a\"b\\c\/d\be\ff\ng\rh\ti"}"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"status"},{"jsonrpc":"2.0","method":"recordView","params":{"id":"w1"}}]"#,
        #"[[[[[[[[[[1]]]]]]]]]]"#,
    ])
    func plain(text: String) throws {
        let value = try #require(fast(text))
        #expect(value == foundation(Array(text.utf8)))
    }

    @Test("The request the benchmark sends is what the long way made of it")
    func statusRequest() {
        #expect(
            fast(#"{"jsonrpc":"2.0","id":1,"method":"status","params":{}}"#)
                == .object(["jsonrpc": "2.0", "id": 1, "method": "status", "params": .object([:])]))
    }

    @Test("Anything but plain JSON is left to Foundation", arguments: [
        // Foundation reads these; their value is its to give.
        #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":1E3}"#, #"{"a":-0}"#, #"{"a":"\u00e9"}"#, #"{"a":"\ud83d\ude00"}"#,
        #"{"a":1234567890123456789}"#, #"{"a":99999999999999999999}"#, #"{"a":1,"a":2}"#,
        // Top-level scalars: whether they are taken is Foundation's to say.
        "3", #""x""#, "true", "null",
        // Not JSON at all, or not RFC 8259's.
        "", " ", "{", "}", "[", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, "[1,]", "[,]", #"{,"a":1}"#, #"{"a":01}"#,
        #"{"a":-}"#, #"{"a":-a}"#, #"{"a":+1}"#, #"{"a":.5}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":falsey}"#,
        #"{"a":"\x"}"#, "{\"a\":\"tab\there\"}", "{\"a\":\"\\", #"{"a":"open}"#, #"{a:1}"#, "{'a':1}",
        #"{"a":1} {"b":2}"#, #"{"a":1}x"#, "\u{FEFF}{}", "{\"a\":1}\u{0B}", #"{"a":NaN}"#, #"[1 2]"#,
        #"{"a":1 "b":2}"#, #"{"a" 1}"#, #"[1]]"#,
    ])
    func leftToFoundation(text: String) {
        #expect(fast(text) == nil)
    }

    @Test("Invalid UTF-8 in a string, and nesting deeper than the limit, are left to Foundation")
    func bytes() {
        #expect(fast(Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)) == nil)
        #expect(fast(Array(#"{"a":""#.utf8) + [0xFF] + Array(#""}"#.utf8)) == nil)
        #expect(fast(Array(#"{""#.utf8) + [0xE2, 0x82] + Array(#"":1}"#.utf8)) == nil)
        let depth = JSONValueParser.maxDepth
        #expect(fast(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)) != nil)
        #expect(fast(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)) == nil)
    }

    @Test("Lines in the subset read to Foundation's value; lines mutated byte by byte never read to another")
    func differential() {
        var generator = SeededGenerator(seed: 16)
        var read = 0
        for _ in 0..<400 {
            let value = Self.randomValue(&generator, depth: 0, container: true)
            let line = Array(try! WireCoding.encode(value))
            if let parsed = fast(line) {
                read += 1
                #expect(parsed == foundation(line), "\(String(decoding: line, as: UTF8.self))")
            }
            // Mutations: a byte dropped, replaced or doubled. What is read must be Foundation's.
            for _ in 0..<8 where !line.isEmpty {
                var mutated = line
                let at = Int(generator.next() % UInt64(line.count))
                switch generator.next() % 3 {
                case 0: mutated.remove(at: at)
                case 1: mutated[at] = Self.alphabet[Int(generator.next() % UInt64(Self.alphabet.count))]
                default: mutated.insert(mutated[at], at: at)
                }
                guard let parsed = fast(mutated) else { continue }
                #expect(parsed == foundation(mutated), "\(String(decoding: mutated, as: UTF8.self))")
                #expect(TrailingComma.find(in: mutated) == nil)
            }
        }
        // The generator's values are mostly plain: most must have been read here.
        #expect(read > 300)
    }

    private static let alphabet = Array(#"{}[],:"\ 0123456789-.eEtrufalsn/bx"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF]

    private static func randomValue(_ generator: inout SeededGenerator, depth: Int, container: Bool = false) -> JSONValue {
        let kind = container ? 5 + Int(generator.next() % 2) : Int(generator.next() % (depth > 3 ? 5 : 7))
        switch kind {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2:
            let magnitude = Int(generator.next() % 1_000_000_000_000_000_000)
            return .integer(generator.next() % 2 == 0 ? magnitude : -magnitude)
        case 3: return generator.next() % 8 == 0 ? .number(Double(generator.next() % 1000) / 8) : .integer(Int(generator.next() % 100))
        case 4: return .string(randomString(&generator))
        case 5:
            return .array((0..<Int(generator.next() % 4)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var object: [String: JSONValue] = [:]
            for _ in 0..<Int(generator.next() % 5) { object[randomString(&generator)] = randomValue(&generator, depth: depth + 1) }
            return .object(object)
        }
    }

    private static func randomString(_ generator: inout SeededGenerator) -> String {
        let pieces = ["a", "id", "status", " ", "é", "✓", "😀", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{7F}", "w1", "0"]
        return (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
    }
}
