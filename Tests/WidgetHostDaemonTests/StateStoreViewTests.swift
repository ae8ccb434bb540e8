import Foundation
import Testing
@testable import WidgetHostCore
import WidgetHostDaemon
import WidgetHostProtocol

/// The view archives stored with entries (timeline, previous entry, placeholder) survive a
/// restart of the state store: the record's JSON column holds them, no schema change.
@Suite("State store: view archives")
struct StateStoreViewTests {
    static let view = ViewArchive(
        family: .systemSmall, environment: ViewEnvironment(colorScheme: .dark),
        root: ViewNode(
            .vstack(
                alignment: "leading", spacing: 4,
                children: [
                    ViewNode(.text([ArchiveTextRun(.string("Ada Lovelace"))]), modifiers: [.font(ArchiveFont(style: "headline"))]),
                    ViewNode(.text([ArchiveTextRun(.date(Date(timeIntervalSince1970: 1_771_200_000), style: .relative))])),
                    ViewNode(.unknown(type: "hologram")),
                ]),
            modifiers: [.containerBackground(style: ArchiveStyle(.fill(3)), view: nil, alignment: "center"), .widgetURL("birthdays://next")]))

    @Test("Entries with views come back equal after the store is reopened")
    func viewsSurviveARestart() throws {
        let scratch = ScratchDirectory()
        var record = richRecord(1)
        let withView = TimelineEntryPayload(date: Date(timeIntervalSince1970: 1_771_142_400), content: .null, view: Self.view)
        var refused = Self.view
        refused.rejected = "viewTooLarge"
        refused.root = ViewNode(.empty)
        record.timeline = AcceptedTimeline(
            entries: [withView, TimelineEntryPayload(date: withView.date + 3600, content: ["n": 1], view: refused)],
            policy: .never, receivedAt: withView.date, reloadStartedAt: withView.date)
        record.placeholder = withView
        record.previousEntry = withView
        do {
            try SQLiteStateStore(directory: scratch.path).write(host: hostRecord(), changed: [record], removed: [])
        }
        let loaded = try #require(try SQLiteStateStore(directory: scratch.path).load())
        #expect(loaded.widgets == [record])
        #expect(loaded.widgets.first?.timeline?.entries.first?.view == Self.view)
        #expect(loaded.widgets.first?.timeline?.entries.last?.view?.rejected == "viewTooLarge")
    }
}
