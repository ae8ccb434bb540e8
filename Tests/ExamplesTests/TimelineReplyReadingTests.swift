import Foundation
import Testing

@testable import WidgetHostProtocol

/// Every example extension's `timeline/get` replies, as the processes write them, read by the
/// host's one-pass reader (`TimelineReplyReader`) to what the long way
/// (`JSONRPCMessage.decodeResult`) reads from them.
@Suite("The examples' timeline replies, read in one pass")
struct TimelineReplyReadingTests {
    @Test("Each kind and family of every example", arguments: [
        "BirthdayRemindersWidget", "W8TrackrWidget", "LucidPalWidget", "WidgyWidget",
    ])
    func replies(executable: String) throws {
        let widget = ExtensionUnderTest(executable)
        let catalog = try widget.call([("initialize", ["protocolVersion": 3])])[0]
        guard case .array(let widgets)? = catalog["widgets"] else {
            Issue.record("no widgets in \(executable)'s catalog")
            return
        }
        var requests: [(method: String, params: JSONValue)] = []
        for declared in widgets {
            guard case .array(let families)? = declared["supportedFamilies"], let kind = declared["kind"] else { continue }
            for family in families {
                requests.append(("timeline/get", ["kind": kind, "family": family, "widgetId": "w1", "now": "2026-12-08T12:00:00Z"]))
            }
        }
        let lines = try Self.replyLines(widget, requests)
        #expect(lines.count == requests.count)
        for line in lines {
            let long = try #require(JSONRPCMessage.decodeResult(line, as: TimelinePayload.self))
            let fast = try #require(line.withUnsafeBufferPointer(TimelineReplyReader.read), "\(String(decoding: line, as: UTF8.self))")
            #expect(long.id == .number(fast.id))
            #expect(long.result == fast.payload)
            #expect(JSONRPCMessage.decodeTimelineResult(line)?.result == long.result)
        }
    }

    /// The reply lines, as written, to requests numbered 1, 2, …
    private static func replyLines(_ widget: ExtensionUnderTest, _ requests: [(method: String, params: JSONValue)]) throws -> [[UInt8]] {
        let process = Process()
        process.executableURL = widget.executable
        process.environment = widget.environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        for (index, request) in requests.enumerated() {
            let line = JSONValue.object([
                "jsonrpc": "2.0", "id": .integer(index + 1), "method": .string(request.method), "params": request.params,
            ])
            text += String(decoding: try JSONEncoder().encode(line), as: UTF8.self) + "\n"
        }
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data.split(separator: UInt8(ascii: "\n")).map { Array($0) }
    }
}
