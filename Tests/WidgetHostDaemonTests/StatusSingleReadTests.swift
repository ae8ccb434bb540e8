import Foundation
import SeededRandom
import Testing
import WidgetHostCore
import WidgetHostProtocol
@testable import WidgetHostDaemon
#if canImport(Glibc)
import Glibc
#endif

/// A read that is one whole plain `status` line is answered without the framer
/// (`ControlConnectionHandler.plainStatusLine`): only when the framer, at the start of a
/// line, would have given exactly that one line, within the limit, and left nothing held.
@Suite("status: one read, one plain line")
struct StatusSingleReadTests {
    /// What the framer makes of `bytes` from the start of a line: the id of its one plain
    /// `status` line when it gives exactly one line and holds nothing after it, else nil.
    static func framed(_ bytes: [UInt8], limit: Int) -> Int? {
        var framer = LineFramer(maxLineBytes: limit)
        let frames = bytes.withUnsafeBytes { framer.append($0) }
        guard frames.count == 1, case .line(let line) = frames[0], framer.isAtLineStart else { return nil }
        return PlainStatusRequest.id(of: line)
    }

    static func fast(_ bytes: [UInt8], limit: Int) -> Int? {
        bytes.withUnsafeBytes { ControlConnectionHandler.plainStatusLine($0, limit: limit) }
    }

    static let line = Array(PlainStatusRequestTests.shapes("17")[0].utf8)

    @Test("Whole lines, CRLF, two lines, half lines, empty lines and the line limit: the framer's answer")
    func cases() {
        let newline = UInt8(ascii: "\n")
        // (read, limit, the fast path's id, the framer's): an empty line beside the plain one
        // goes the framer's way, which skips it (the fast path only takes the plainest read).
        let cases: [([UInt8], Int, Int?, Int?)] = [
            (Self.line + [newline], 1024, 17, 17),
            (Self.line + Array("\r\n".utf8), 1024, 17, 17),
            (Self.line + Array("\r\r\n".utf8), 1024, nil, nil),
            (Self.line, 1024, nil, nil),
            (Self.line + [newline] + Self.line + [newline], 1024, nil, nil),
            ([newline] + Self.line + [newline], 1024, nil, 17),
            (Self.line + [newline, newline], 1024, nil, 17),
            (Array(Self.line[..<20]) + [newline], 1024, nil, nil),
            ([newline], 1024, nil, nil),
            (Array("\r\n".utf8), 1024, nil, nil),
            ([], 1024, nil, nil),
            (Self.line + [newline], Self.line.count, 17, 17),
            (Self.line + Array("\r\n".utf8), Self.line.count, 17, 17),
            (Self.line + [newline], Self.line.count - 1, nil, nil),
            (Self.line + Array("\r\n".utf8), Self.line.count - 1, nil, nil),
            (Array(PlainStatusRequestTests.shapes("1")[3].utf8) + [newline], 1024, 1, 1),
        ]
        for (bytes, limit, fast, framed) in cases {
            let text = String(decoding: bytes, as: UTF8.self).debugDescription
            #expect(Self.fast(bytes, limit: limit) == fast, "\(text), limit \(limit)")
            #expect(Self.framed(bytes, limit: limit) == framed, "\(text), limit \(limit)")
        }
    }

    /// Random edits of a read (one of the four shapes and its newline; bytes deleted,
    /// replaced or inserted, newlines and CRs among them): whenever the fast path answers,
    /// the framer gives that one plain line with the same id; and it answers every read
    /// that is one line without an empty one beside it.
    @Test("Mutated reads: the fast path and the framer agree", arguments: [UInt64(1), 2, 3])
    func mutations(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("{}\":,0123456789\r\n\n\nstau".utf8)
        var hits = 0
        for round in 0..<5_000 {
            let shapes = PlainStatusRequestTests.shapes(String(round % 1_000))
            let bytes = randomlyEdited(
                Array(shapes[round % shapes.count].utf8) + [UInt8(ascii: "\n")], edits: 0...3, alphabet: alphabet,
                using: &random)
            let limit = [1024, 40, 44, 60][round % 4]
            let fast = Self.fast(bytes, limit: limit)
            let framed = Self.framed(bytes, limit: limit)
            let text = "\(String(decoding: bytes, as: UTF8.self).debugDescription), limit \(limit)"
            if let fast {
                hits += 1
                #expect(framed == fast, "\(text)")
            } else if framed != nil {
                // Missed only for an empty line beside the plain one.
                #expect(bytes.first == UInt8(ascii: "\n") || bytes.first == UInt8(ascii: "\r") || bytes.suffix(2) == [10, 10] || bytes.suffix(3) == [10, 13, 10], "\(text)")
            }
        }
        #expect(hits > 500)
    }

    @Test("On the daemon: a plain line split over two reads, after half a line, with CRLF, after a held half line, and over the limit")
    func daemon() throws {
        let limits = try ControlLimitsDaemon { $0.maxLineBytes = 44 }
        let client = try limits.client()
        func write(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.write(client.fd, $0.baseAddress, $0.count) }
        }
        func expectStatusReply(_ id: Int, _ comment: Comment) throws {
            let reply = try #require(client.receiveRaw(), comment)
            #expect(String(decoding: reply, as: UTF8.self).hasPrefix(#"{"id":\#(id),"jsonrpc":"2.0","result":{"#), comment)
        }
        let plain = PlainStatusRequestTests.shapes("7")[0]  // 42 bytes
        write(plain + "\n")
        try expectStatusReply(7, "one read")
        write(String(plain.prefix(20)))
        usleep(100_000)
        write(String(plain.dropFirst(20)) + "\n")
        try expectStatusReply(7, "two reads")
        write(#"{"jsonrpc":"2.0","#)
        usleep(100_000)
        write(#""id":8,"method":"status"}"# + "\n")
        try expectStatusReply(8, "the rest of a line")
        write(plain + "\r\n")
        try expectStatusReply(7, "CRLF")
        // A read that is a plain line after half a line held from before: one line, and over
        // the limit with it (45 bytes), so refused; not answered as a `status`.
        write("[1,")
        usleep(100_000)
        write(plain + "\n")
        let joined = try #require(client.receiveRaw())
        #expect(String(decoding: joined, as: UTF8.self).hasPrefix(#"{"error":{"code":-32600,"message":"Invalid request: line longer than 44 bytes"#), "\(String(decoding: joined, as: UTF8.self))")
        // 54 bytes: over the 44-byte limit, refused as the framer refuses it; the next is answered.
        write(PlainStatusRequestTests.shapes("9")[1] + "\n")
        guard case .single(.message(.errorResponse(nil, let error)))? = client.receiveLine() else {
            Issue.record("no line-too-long error")
            return
        }
        #expect(error == .lineTooLong(limit: 44))
        write(plain + "\n")
        try expectStatusReply(7, "after the refusal")
    }
}
