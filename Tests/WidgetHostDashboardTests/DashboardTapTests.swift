import Foundation
import Testing
import WidgetHostProtocol

@testable import WidgetHostDashboard

/// A click on a widget's Button(intent:) or Toggle(isOn:intent:): `POST /api/widgets/ID/tap`
/// is the control method `tap`, under the write rule (the bearer token, never the cookie), and
/// a card drawn while the intent runs shows what the core says: the Toggle's new state and
/// the invalidatable content dimmed.
@Suite(.tags(.sockets)) struct DashboardTapTests {
    typealias Running = DashboardServerTests.Running

    @Test("A tap is the control method tap, with the widget from the path and the button from the body")
    func tapIsTheControlMethod() throws {
        let running = try Running(widgets: DashboardServerTests.widgets)
        let probe = HTTPProbe()
        let tapped = try probe.request(
            running.base + "/api/widgets/w1/tap", method: "POST", headers: running.bearer, body: #"{"button":"b2"}"#)
        #expect(tapped.status == 200)
        let empty = try probe.request(running.base + "/api/widgets/w%2F1/tap", method: "POST", headers: running.bearer)
        #expect(empty.status == 200)
        let calls = try running.calls()
        #expect(calls.map(\.0) == [.tap, .tap])
        #expect(calls.first?.1 == .object(["id": .string("w1"), "button": .string("b2")]))
        #expect(calls.last?.1 == .object(["id": .string("w/1")]))
    }

    @Test("A tap needs the bearer token: the cookie alone is 403, no token 401; a bad body is 400; nothing is called")
    func tapNeedsTheBearer() throws {
        let running = try Running(widgets: DashboardServerTests.widgets)
        let probe = HTTPProbe()
        let url = running.base + "/api/widgets/w1/tap"
        let cookie = try probe.request(
            url, method: "POST", headers: ["Cookie": "widgethost_token=\(running.token)"], body: #"{"button":"b1"}"#)
        #expect(cookie.status == 403)
        #expect(try probe.request(url, method: "POST", body: #"{"button":"b1"}"#).status == 401)
        let list = try probe.request(url, method: "POST", headers: running.bearer, body: #"["b1"]"#)
        #expect(list.status == 400)
        #expect(list.body.contains(#"{\"button\": \"b1\"}"#), "\(list.body)")
        let other = try probe.request(url, method: "POST", headers: running.bearer, body: #"{"id":"w2","button":"b1"}"#)
        #expect(other.status == 400)
        #expect(try running.calls().count == 0)
    }

    static let toggleArchive = ViewArchive(
        family: .systemSmall,
        root: ViewNode(
            .vstack(
                alignment: "leading", spacing: nil,
                children: [
                    ViewNode(.text([ArchiveTextRun(.string("3 done"))]), modifiers: [.invalidatableContent(true)]),
                    ViewNode(
                        .toggle(
                            ArchiveIntentControl(
                                id: "b1", intent: IntentInvocation(type: "Lamp", title: "Lamp"), isOn: false,
                                label: ViewNode(.text([ArchiveTextRun(.string("Lamp"))]))))),
                ])))

    static func status(interaction: IntentInteraction?) -> WidgetStatus {
        var status = FakeSource.status(id: "w1", kind: "TasksWidget", family: .systemSmall)
        status.currentEntry = CurrentEntry(
            source: .timeline, entry: TimelineEntryPayload(date: FakeSource.t0, content: .null, view: toggleArchive))
        status.interaction = interaction
        return status
    }

    static func snapshot(_ status: WidgetStatus) -> DashboardSnapshot {
        DashboardSnapshot(
            now: FakeSource.t0, widgets: [status], timelines: [:], catalog: ExtensionsResult(loaded: [], skipped: []),
            appGroupsPath: "/nonexistent")
    }

    @Test("While the core runs the tapped Toggle's intent, the card shows it on and dims invalidatable content; after, as the entry drew it")
    func runningIntentOnTheCard() {
        let running = Self.status(
            interaction: IntentInteraction(intent: "Lamp", button: "b1", startedAt: FakeSource.t0, toggledTo: true))
        let during = WidgetCard.html(running, Self.snapshot(running))
        #expect(during.contains("wh-widget wh-clock wh-systemSmall wh-light wh-fullColor wh-intent-running"))
        #expect(during.contains("class=\"wh-button wh-toggle wh-on wh-tapped\" data-wh-button=\"b1\""))
        #expect(during.contains("wh-invalidatable"))
        #expect(during.contains("<span class=\"wd-badge wd-intent\""))
        #expect(during.contains("Lamp running</span>"))

        let idle = Self.status(interaction: nil)
        let after = WidgetCard.html(idle, Self.snapshot(idle))
        #expect(!after.contains("wh-intent-running"))
        #expect(after.contains("class=\"wh-button wh-toggle\" data-wh-button=\"b1\""))
        #expect(!after.contains("wd-intent"))
    }

    @Test("The page's stylesheet dims invalidatable content only while an intent runs; its script taps")
    func pageDimsAndTaps() throws {
        let running = try Running(widgets: [Self.status(interaction: nil)])
        let page = try HTTPProbe().request(running.base + "/", headers: running.bearer)
        #expect(page.body.contains(".wh-intent-running .wh-invalidatable>:not(.wh-c)"))
        #expect(page.body.contains("\"/api/widgets/\" + encodeURIComponent(id) + \"/tap\""))
        #expect(page.body.contains("data-wh-button=\"b1\""))
    }
}
