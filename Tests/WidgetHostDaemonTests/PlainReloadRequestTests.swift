import Foundation
import SeededRandom
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

/// `PlainReloadRequest`: the lines run without reading them as JSON are exactly the ones the
/// normal reader takes for a `reloadTimelines` request whose params are `{"kind": K}` alone,
/// with the same numeric id and kind, and everything that merely looks like one goes the
/// normal way.
@Suite("reloadTimelines: a plain request's bytes recognised")
struct PlainReloadRequestTests {
    static func shapes(_ id: String, _ kind: String) -> [String] {
        [
            #"{"jsonrpc":"2.0","id":\#(id),"method":"reloadTimelines","params":{"kind":"\#(kind)"}}"#,
            #"{"id":\#(id),"jsonrpc":"2.0","method":"reloadTimelines","params":{"kind":"\#(kind)"}}"#,
        ]
    }

    /// What the normal way makes of `line`: the id and kind of a `reloadTimelines` request whose
    /// params are exactly `{"kind": K}`, or nil for anything else.
    static func normalRequest(_ line: [UInt8]) -> (id: Int, kind: String)? {
        guard case .single(.message(.request(.number(let id), "reloadTimelines", let params))) = JSONRPCLine.parse(line),
            case .object(let members)? = params, members.count == 1, case .string(let kind)? = members["kind"]
        else { return nil }
        return (id, kind)
    }

    static let ids = [0, 1, 7, 42, 1_000, 123_456_789, 999_999_999_999_999_999]
    static let kinds = ["K", "BenchWidget", "a b/c.d-e_f:g", "~!@#$%^&*()[]{}<>?,;'`|=+", String(repeating: "x", count: 256)]

    @Test("Both shapes, with ids from 0 to 18 digits and kinds of printable ASCII, give their id and kind, as the normal way reads them", arguments: ids)
    func shapesAccepted(id: Int) throws {
        for kind in Self.kinds {
            for line in Self.shapes(String(id), kind) {
                let bytes = Array(line.utf8)
                let plain = try #require(PlainReloadRequest.request(of: bytes), "\(line)")
                #expect(plain.id == id && plain.kind == kind, "\(line)")
                let normal = try #require(Self.normalRequest(bytes), "\(line)")
                #expect(normal.id == id && normal.kind == kind, "\(line)")
            }
        }
    }

    /// Lines that look like a plain `reloadTimelines` request; each goes the normal way.
    static let lookalikes: [String] =
        [
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":""}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"\#(String(repeating: "x", count: 257))"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"a\"b"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"a\\b"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"\u0041"}}"#,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"reloadTimelines\",\"params\":{\"kind\":\"a\tb\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"reloadTimelines\",\"params\":{\"kind\":\"ü\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"reloadTimelines\",\"params\":{\"kind\":\"\u{7F}\"}}",
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K","app":"a"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K","foreground":true}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"app":"a","kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K"},"x":1}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K"}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K" }}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind": "K"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K"} }"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":K}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":1}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K","kind":"L"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadAllTimelines","params":{"kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadtimelines","params":{"kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"Kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":[{"kind":"K"}]}"#,
            #"{"jsonrpc":"2.1","id":1,"method":"reloadTimelines","params":{"kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":"1","method":"reloadTimelines","params":{"kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":-1,"method":"reloadTimelines","params":{"kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":01,"method":"reloadTimelines","params":{"kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":1.0,"method":"reloadTimelines","params":{"kind":"K"}}"#,
            #"{"jsonrpc":"2.0","id":1000000000000000000,"method":"reloadTimelines","params":{"kind":"K"}}"#,
            #"{"jsonrpc":"2.0","method":"reloadTimelines","params":{"kind":"K"}}"#,
            #"{"method":"reloadTimelines","jsonrpc":"2.0","id":1,"params":{"kind":"K"}}"#,
            #"{"id":1,"method":"reloadTimelines","jsonrpc":"2.0","params":{"kind":"K"}}"#,
            #"[{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K"}}]"#,
            #" {"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kind":"K"}}"#,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"reloadTimelines\",\"params\":{\"kind\":\"K\"}}\r",
            #"{"jsonrpc":"2.0","id":1,"method":"status"}"#,
            "", "{", "}", "{}", "null",
        ]

    @Test("Lookalikes go the normal way: kinds to unescape or not ASCII, other params, spaces, key orders, ids, methods, versions")
    func lookalikesRefused() {
        for line in Self.lookalikes {
            #expect(PlainReloadRequest.request(of: Array(line.utf8)) == nil, "\(line)")
        }
    }

    /// Random edits of the two shapes (a byte deleted, replaced or inserted, up to three
    /// times): whenever one is still recognised, the normal way reads the same request.
    @Test("Mutated shapes: whatever is recognised is the request the normal way reads", arguments: [UInt64(1), 2, 3, 4])
    func mutations(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let alphabet = Array(#"{}[]":,0123456789 -.eE"\sxtaumdjpnrkKiT"#.utf8) + [0x09, 0x7F, 0xC3, 0xBC]
        var recognised = 0
        for round in 0..<5_000 {
            let id = Self.ids[Int.random(in: 0..<Self.ids.count, using: &random)]
            let kind = Self.kinds[Int.random(in: 0..<Self.kinds.count - 1, using: &random)]
            let shapes = Self.shapes(String(id), kind)
            let line = randomlyEdited(Array(shapes[round % shapes.count].utf8), alphabet: alphabet, using: &random)
            guard let plain = PlainReloadRequest.request(of: line) else { continue }
            recognised += 1
            let normal = Self.normalRequest(line)
            #expect(normal?.id == plain.id && normal?.kind == plain.kind, "\(String(decoding: line, as: UTF8.self))")
        }
        // Edits inside the id or the kind keep many lines recognised.
        #expect(recognised > 100)
    }
}
