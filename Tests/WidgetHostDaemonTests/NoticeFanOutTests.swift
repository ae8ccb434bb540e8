import Foundation
import NIOCore
import Testing
import WidgetHostProtocol

@testable import WidgetHostDaemon

/// A notice is encoded once and the same bytes go to every `subscribe` connection
/// (`PublishedNotice`); a connection that did not subscribe gets none.
@Suite("Notices to several subscribers", .tags(.process), .serialized)
struct NoticeFanOutTests {
    @Test("The event line is notificationLine's bytes, built once and kept")
    func eventLine() throws {
        let widget = NoticeWidget(id: "w1", kind: "K", extension: "e.x")
        let notice = HostNotice.entryChanged(
            widget, at: Date(timeIntervalSince1970: 1_771_142_400.5),
            entry: TimelineEntryPayload(date: Date(timeIntervalSince1970: 1_771_142_400), content: ["n": 1, "s": "é"]),
            source: .timeline)
        let published = PublishedNotice(notice)
        let expected = try JSONRPCMessage.notificationLine(method: ControlMethod.eventNotification, params: notice)
        let line = try #require(published.eventLine)
        #expect(Array(line.readableBytesView) == Array(expected))
        #expect(published.eventLine == line)
        // Content JSON cannot hold: no line, and no subscriber is written a broken one.
        let bad = HostNotice.entryChanged(
            widget, at: Date(timeIntervalSince1970: 0),
            entry: TimelineEntryPayload(date: Date(timeIntervalSince1970: 0), content: ["n": .number(.nan)]),
            source: .timeline)
        #expect(PublishedNotice(bad).eventLine == nil)
    }

    @Test("Two subscribers get the same notices in the same order; a plain connection gets none")
    func twoSubscribers() throws {
        let fixture = try DaemonFixture()
        let first = try fixture.client()
        let second = try fixture.client()
        let plain = try fixture.client()
        _ = try first.call("subscribe")
        _ = try second.call("subscribe")
        let added: AddWidgetResult = try plain.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        var seen: [[HostNotice]] = []
        for client in [first, second] {
            var notices: [HostNotice] = []
            while let notice = client.nextNotice(where: { _ in true }) {
                notices.append(notice)
                if notice.type == .entryChanged, notice.detail == "timeline" { break }
            }
            seen.append(notices)
        }
        #expect(seen[0].count >= 4)
        #expect(seen[0] == seen[1])
        #expect(seen[0].first?.widgetId == added.widget.id)
        // The plain connection's next line is the answer to its next request, not a notice.
        plain.send(raw: #"{"jsonrpc":"2.0","id":99,"method":"status","params":{}}"#)
        guard case .message(.response(let id, _))? = plain.receive() else {
            Issue.record("a connection that did not subscribe was sent something else")
            return
        }
        #expect(id == .number(99))
    }
}
