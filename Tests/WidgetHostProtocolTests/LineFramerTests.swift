import SeededRandom
import Testing
import WidgetHostProtocol

@Suite("NDJSON framing")
struct LineFramerTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func line(_ text: String) -> LineFramer.Frame { .line(bytes(text)) }

    @Test("Lines split across chunk boundaries are reassembled")
    func chunkBoundaries() {
        var framer = LineFramer(maxLineBytes: 1024)
        #expect(framer.append(bytes(#"{"a":1}"# + "\n" + #"{"b""#)) == [line(#"{"a":1}"#)])
        #expect(framer.bufferedByteCount == 4)
        #expect(framer.append(bytes(#":2}"#)) == [])
        #expect(framer.append(bytes("\n" + #"{"c":3}"# + "\n")) == [line(#"{"b":2}"#), line(#"{"c":3}"#)])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("Byte by byte gives the same lines as all at once")
    func byteByByte() {
        let stream = bytes("one\ntwo\r\n\nthree\n")
        var whole = LineFramer(maxLineBytes: 64)
        var single = LineFramer(maxLineBytes: 64)
        let expected = whole.append(stream)
        #expect(stream.flatMap { single.append([$0]) } == expected)
        #expect(expected == [line("one"), line("two"), line("three")])
    }

    @Test("CRLF line ends are accepted and the CR removed")
    func crlf() {
        var framer = LineFramer(maxLineBytes: 64)
        #expect(framer.append(bytes("a\r\nb\r\n")) == [line("a"), line("b")])
        // A CR inside a line is content.
        #expect(framer.append(bytes("c\rd\n")) == [line("c\rd")])
    }

    @Test("Blank lines are skipped")
    func blankLines() {
        var framer = LineFramer(maxLineBytes: 64)
        #expect(framer.append(bytes("\n\n\r\nx\n\n")) == [line("x")])
    }

    @Test("A line of exactly the limit is delivered", arguments: ["\n", "\r\n"])
    func exactlyAtLimit(terminator: String) {
        var framer = LineFramer(maxLineBytes: 8)
        #expect(framer.append(bytes("12345678" + terminator)) == [line("12345678")])
        #expect(!framer.isDiscarding)
    }

    @Test("An oversized line is reported once with its size, and the next line is still delivered")
    func oversized() {
        var framer = LineFramer(maxLineBytes: 8)
        var frames: [LineFramer.Frame] = []
        for chunk in ["12345", "67890", "abcde", "fghij\nnext", "\n"] {
            frames += framer.append(bytes(chunk))
        }
        #expect(frames == [.oversized(byteCount: 20), line("next")])
    }

    @Test("One byte over the limit is oversized", arguments: ["\n", "\r\n"])
    func oneOver(terminator: String) {
        var framer = LineFramer(maxLineBytes: 8)
        let frames = framer.append(bytes("123456789" + terminator + "ok\n"))
        #expect(frames.count == 2)
        guard case .oversized(let size) = frames.first else {
            Issue.record("expected an oversized frame, got \(frames)")
            return
        }
        #expect(size >= 9)
        #expect(frames.last == line("ok"))
    }

    @Test("A CR after a full buffer that is not followed by LF makes the line oversized")
    func carriageReturnThenContent() {
        var framer = LineFramer(maxLineBytes: 8)
        #expect(framer.append(bytes("12345678\r9\nok\n")) == [.oversized(byteCount: 10), line("ok")])
        #expect(framer.append(bytes("12345678\r\r\n")) == [.oversized(byteCount: 10)])
    }

    @Test("Streaming 10 MiB without a newline never buffers more than the limit")
    func tenMebibytesWithoutNewline() {
        let limit = 1 << 20
        var framer = LineFramer(maxLineBytes: limit)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        var frames: [LineFramer.Frame] = []
        for _ in 0..<160 {
            frames += framer.append(chunk)
            #expect(framer.bufferedByteCount <= limit)
        }
        #expect(frames.isEmpty)
        #expect(framer.isDiscarding)
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.append(bytes("\n{}\n")) == [.oversized(byteCount: 10 << 20), line("{}")])
        #expect(!framer.isDiscarding)
    }

    @Test("finish() delivers an unterminated last line")
    func finishWithPartialLine() {
        var framer = LineFramer(maxLineBytes: 64)
        #expect(framer.append(bytes("a\nb")) == [line("a")])
        #expect(framer.finish() == [line("b")])
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.finish() == [])
    }

    @Test("finish() after a complete line has nothing to deliver")
    func finishWithoutPartialLine() {
        var framer = LineFramer(maxLineBytes: 64)
        #expect(framer.append(bytes("a\n")) == [line("a")])
        #expect(framer.finish() == [])
    }

    @Test("finish() drops the CR of an unterminated CRLF line")
    func finishWithCarriageReturn() {
        var framer = LineFramer(maxLineBytes: 64)
        #expect(framer.append(bytes("a\r")) == [])
        #expect(framer.finish() == [line("a")])
    }

    @Test("finish() in the middle of an oversized line reports it, then the framer starts afresh")
    func finishWhileDiscarding() {
        var framer = LineFramer(maxLineBytes: 4)
        #expect(framer.append(bytes("123456")) == [])
        #expect(framer.finish() == [.oversized(byteCount: 6)])
        #expect(framer.append(bytes("ok\n")) == [line("ok")])
    }

    /// The read buffer's path (whole lines copied between newlines) against the byte loop (the
    /// generic path): random streams of `a`, `\r` and `\n`, small limits, random chunkings.
    @Test("A read buffer's bytes give the frames and the state the byte loop gives", arguments: [UInt64(1), 2, 3])
    func bufferPathAgainstByteLoop(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let alphabet: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        for _ in 0..<2_000 {
            let limit = Int.random(in: 1...8, using: &random)
            var bytewise = LineFramer(maxLineBytes: limit)
            var buffered = LineFramer(maxLineBytes: limit)
            let stream = (0..<Int.random(in: 0...60, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 1...20, using: &random))
                let chunk = Array(stream[start..<end])
                let expected = bytewise.append(chunk)
                let got = chunk.withUnsafeBytes { buffered.append($0) }
                #expect(got == expected, "limit \(limit), stream \(stream), chunk \(start)..<\(end)")
                #expect(buffered.bufferedByteCount == bytewise.bufferedByteCount)
                #expect(buffered.isDiscarding == bytewise.isDiscarding)
                start = end
            }
            #expect(buffered.finish() == bytewise.finish(), "limit \(limit), stream \(stream)")
        }
    }
}
