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
        let lines = try widget.replyLines(requests)
        #expect(lines.count == requests.count)
        for line in lines {
            let long = try #require(JSONRPCMessage.decodeResult(line, as: TimelinePayload.self))
            let fast = try #require(line.withUnsafeBufferPointer(TimelineReplyReader.read), "\(String(decoding: line, as: UTF8.self))")
            #expect(long.id == .number(fast.id))
            #expect(long.result == fast.payload)
            #expect(JSONRPCMessage.decodeTimelineResult(line)?.result == long.result)
        }
    }
}
