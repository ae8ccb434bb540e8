import Foundation
import SeededRandom
import Testing

@testable import WidgetHostProtocol

/// The one-pass reader of `timeline/get` replies against the long way it stands in front of
/// (`JSONRPCMessage.decodeResult`: the plain reader or Foundation's, then `JSONValueDecoder`):
/// for any line it gives the long way's answer or nothing, and it takes the common replies.
@Suite("Reading timeline replies in one pass")
struct TimelineReplyReaderTests {
    private static func fast(_ line: [UInt8]) -> (id: Int, payload: TimelinePayload)? {
        line.withUnsafeBufferPointer(TimelineReplyReader.read)
    }

    private static func long(_ line: [UInt8]) -> (id: JSONRPCID, result: TimelinePayload)? {
        JSONRPCMessage.decodeResult(line, as: TimelinePayload.self)
    }

    /// The fast reader's answer is the long way's, whenever it gives one; and the public entry
    /// point (fast, then long) always gives the long way's.
    static func expectSame(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let long = long(line)
        if let fast = fast(line) {
            #expect(long?.id == .number(fast.id), "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
            #expect(long?.result == fast.payload, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        }
        let either = JSONRPCMessage.decodeTimelineResult(line)
        #expect(either?.id == long?.id, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(either?.result == long?.result, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    static let view = #"{"environment":{"colorScheme":"light","displayScale":3,"locale":"en_US","showsWidgetContainerBackground":true,"widgetRenderingMode":"fullColor"},"family":"systemSmall","root":{"alignment":"center","children":[{"modifiers":[{"font":{"style":"title2"},"type":"font"},{"style":{"level":2,"type":"hierarchical"},"type":"foregroundStyle"}],"system":"gift","type":"image"},{"runs":[{"font":{"style":"caption"},"text":"No birthdays yet."}],"type":"text"}],"modifiers":[{"type":"widgetURL","url":"birthdays://import"}],"spacing":6,"type":"vstack"},"version":1}"#

    @Test("Common replies are read in one pass, to the long way's value", arguments: [
        // The benchmark extension's reply, as it writes it.
        #"{"id":2,"jsonrpc":"2.0","result":{"entries":[{"content":{"pid":10431,"serial":1},"date":"2026-11-27T13:29:17.421972Z"}],"policy":{"date":"2026-11-27T19:29:17.421972Z","type":"after"}}}"#,
        // An example's, with a view.
        #"{"id":2,"jsonrpc":"2.0","result":{"entries":[{"content":{"date":"2026-11-27T13:33:59.8899Z","upcomingBirthdays":[]},"date":"2026-11-27T13:33:59.8899Z","view":\#(view)}],"policy":{"date":"2026-11-28T00:00:00Z","type":"after"}}}"#,
        // Keys in another order, spaces, several entries, no content, null content and view.
        #" { "result" : { "policy" : { "type" : "atEnd" } , "entries" : [ { "date" : "2026-02-15T08:00:00Z" } , { "view" : null , "content" : null , "date" : "2026-02-15T09:00:00+01:00" } ] } , "jsonrpc" : "2.0" , "id" : -3 } "#,
        #"{"jsonrpc":"2.0","id":0,"result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":7,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","content":[1,"a",true,false,null,{"é":"✓ \"q\" \\ \/"}]}],"policy":{"type":"atEnd","date":"2026-02-15T08:00:00Z"}}}"#,
        // A view that is no archive: the lenient reading's unknown root, as the long way gives it.
        #"{"jsonrpc":"2.0","id":7,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","view":"text"},{"date":"2026-02-15T08:00:00Z","view":[1]},{"date":"2026-02-15T08:00:00Z","view":{"root":5}}],"policy":{"type":"never"}}}"#,
    ])
    func common(text: String) throws {
        let line = Array(text.utf8)
        let fast = try #require(Self.fast(line))
        let long = try #require(Self.long(line))
        #expect(long.id == .number(fast.id))
        #expect(long.result == fast.payload)
        Self.expectSame(line)
    }

    @Test("Lines outside the common shape are left to the long way, which answers as before", arguments: [
        // The long way reads these.
        #"{"jsonrpc":"2.0","id":"r","result":{"entries":[],"policy":{"type":"never"}}}"#,  // a string id
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","relevance":{"score":1}}],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","content":1.5}],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","content":"\u00e9"}],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"never"},"extra":1}}"#,  // a key it does not know
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","other":[]}],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"never","why":"x"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"atEnd","date":5}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"never"}},"note":null}"#,
        // The long way refuses these too.
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"never"}},"error":{"code":1,"message":"m"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"1.0","id":1,"result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"never"}},}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[]}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"id":1,"result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":null,"result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1.0,"result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":01,"result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"id":2,"result":{"entries":[],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"date":"yesterday"}],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"content":{}}],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","date":"2026-02-15T08:00:00Z"}],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"after"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"after","date":"soon"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"sometimes"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":{},"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[1],"policy":{"type":"never"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":null}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"never"}}} x"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"entries":[],"policy":{"type":"never"}}"#,
        "[1]", "not json", "", " ", "{}", "{",
    ])
    func leftToTheLongWay(text: String) {
        let line = Array(text.utf8)
        #expect(Self.fast(line) == nil)
        Self.expectSame(line)
    }

    @Test("Content nested deeper than the plain reader's limit is left to Foundation, as the plain reader leaves it")
    func depth() {
        // The content sits at depth 4: the plain reader's limit counts from the line's root.
        let limit = JSONValueParser.maxDepth - 4
        for depth in [limit - 1, limit, limit + 1] {
            let content = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let line = Array(#"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"date":"2026-02-15T08:00:00Z","content":\#(content)}],"policy":{"type":"never"}}}"#.utf8)
            let plain = line.withUnsafeBufferPointer(JSONValueParser.parse) != nil
            #expect((Self.fast(line) != nil) == plain, "depth \(depth)")
            Self.expectSame(line)
        }
    }

    @Test("Random replies, and each mutated byte by byte, read to the long way's answer or to nothing")
    func differential() {
        var generator = SeededGenerator(seed: 19)
        var taken = 0
        for _ in 0..<300 {
            let line = Self.randomReply(&generator)
            if Self.fast(line) != nil { taken += 1 }
            Self.expectSame(line)
            for _ in 0..<10 {
                var mutated = line
                let at = Int(generator.next() % UInt64(line.count))
                switch generator.next() % 3 {
                case 0: mutated.remove(at: at)
                case 1: mutated[at] = Self.alphabet[Int(generator.next() % UInt64(Self.alphabet.count))]
                default: mutated.insert(mutated[at], at: at)
                }
                Self.expectSame(mutated)
            }
        }
        // Most generated replies are in the common shape.
        #expect(taken > 200)
    }

    private static let alphabet = Array(#"{}[],:"\ 0123456789-.eEtrufalsnTZ"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF]

    private static func randomReply(_ generator: inout SeededGenerator) -> [UInt8] {
        func pick<T>(_ options: [T]) -> T { options[Int(generator.next() % UInt64(options.count))] }
        let dates = ["2026-02-15T08:00:00Z", "2026-11-27T13:29:17.421972Z", "2026-02-15T09:00:00+01:00", "2026-02-15t08:00:00z"]
        let contents = [#"{"n":1}"#, #"{"pid":10431,"serial":1}"#, "null", #"[1,"a",true]"#, #""text""#, "{}", #"{"a":{"b":[null,false]}}"#]
        var entries: [String] = []
        for _ in 0..<Int(generator.next() % 4) {
            var members = [#""date":"\#(pick(dates))""#]
            if generator.next() % 4 != 0 { members.append(#""content":\#(pick(contents))"#) }
            switch generator.next() % 5 {
            case 0: members.append(#""view":\#(view)"#)
            case 1: members.append(#""view":null"#)
            default: break
            }
            if generator.next() % 12 == 0 { members.append(#""relevance":{"score":2}"#) }
            entries.append("{" + shuffled(members, &generator).joined(separator: ",") + "}")
        }
        let policy = pick([#"{"type":"atEnd"}"#, #"{"type":"never"}"#, #"{"date":"\#(pick(dates))","type":"after"}"#])
        let result = "{" + shuffled([#""entries":[\#(entries.joined(separator: ","))]"#, #""policy":\#(policy)"#], &generator)
            .joined(separator: ",") + "}"
        let id = generator.next() % 10 == 0 ? #""s""# : String(Int(generator.next() % 1000))
        let envelope = shuffled([#""id":\#(id)"#, #""jsonrpc":"2.0""#, #""result":\#(result)"#], &generator)
        return Array(("{" + envelope.joined(separator: ",") + "}").utf8)
    }

    private static func shuffled(_ items: [String], _ generator: inout SeededGenerator) -> [String] {
        var items = items
        for index in items.indices.reversed() where index > 0 {
            items.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        return items
    }
}
