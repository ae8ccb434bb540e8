import Foundation
import Testing
import WidgetHostProtocol
import WidgetHostRendering

/// The Lock Screen and the Dynamic Island as the host draws Live Activities.
@Suite struct LockScreenTests {
    static let at = Date(timeIntervalSince1970: 1_771_142_400)  // 2026-02-15T08:00:00Z
    static let options = RenderOptions(at: at)

    static func text(_ string: String) -> ViewArchive {
        ViewArchive(family: nil, root: ViewNode(.text([ArchiveTextRun(.string(string))])))
    }

    /// Views whose every presentation says which it is: "a1 lockScreen", "a1 expanded.bottom", …
    static func views(_ id: String, regions: [String] = ActivityRenderResult.regionPositions) -> ActivityViews {
        ActivityViews(
            renderedAt: at, contentUpdatedAt: at, isStale: false,
            result: ActivityRenderResult(
                lockScreen: text("\(id) lockScreen"), compactLeading: text("\(id) compactLeading"),
                compactTrailing: text("\(id) compactTrailing"), minimal: text("\(id) minimal"),
                expanded: regions.map { .init(position: $0, view: text("\(id) expanded.\($0)")) }))
    }

    static func activity(_ id: String, _ state: ActivityStateName = .active, views: ActivityViews? = nil) -> LockScreenActivity {
        LockScreenActivity(
            id: id, app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", state: state,
            views: views ?? self.views(id))
    }

    /// The `data-wh-presentation` values in `html`, with the activity that precedes each.
    static func presentations(_ html: String) -> [String] {
        html.components(separatedBy: "data-wh-presentation=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test("Each presentation is drawn at its own size: Lock Screen 371×160 with 14 pt margins, compact 52.33×36.67, minimal 36.67, expanded regions", arguments: ActivityPresentation.allCases)
    func sizes(presentation: ActivityPresentation) {
        let drawn = ActivityViewRenderer.render(
            Self.text("x"), presentation: presentation, activityID: "a1", options: Self.options)
        #expect(drawn.width == presentation.displaySize.width)
        #expect(drawn.height == presentation.displaySize.height)
        #expect(drawn.html.contains("width:\(Self.px(presentation.displaySize.width));height:\(Self.px(presentation.displaySize.height))"))
        #expect(drawn.html.contains("padding:\(presentation == .lockScreen ? "14px" : "0px")"))
        // The island is dark whatever the page's scheme; the Lock Screen follows it.
        #expect(drawn.html.contains(presentation.isDynamicIsland ? "wh-dark" : "wh-light"))
    }

    static func px(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))px" : "\(value)px"
    }

    @Test("The island at the top: bare with no ongoing activity, compact with one, two minimal with two or more; ended ones are not in it")
    func topIsland() {
        #expect(Self.presentations(DynamicIslandWriter.top([], options: Self.options).html).isEmpty)
        #expect(Self.presentations(DynamicIslandWriter.top([Self.activity("a1", .ended)], options: Self.options).html).isEmpty)
        let one = DynamicIslandWriter.top([Self.activity("a1"), Self.activity("a2", .ended)], options: Self.options).html
        #expect(Self.presentations(one) == ["compactLeading", "compactTrailing"])
        #expect(one.contains("a1 compactLeading") && !one.contains("a2"))
        let three = DynamicIslandWriter.top(
            [Self.activity("a1"), Self.activity("a2", .stale), Self.activity("a3")], options: Self.options
        ).html
        #expect(Self.presentations(three) == ["minimal", "minimal"])
        #expect(three.contains("a1 minimal") && three.contains("a2 minimal") && !three.contains("a3"))
    }

    @Test("Expanded: leading, center and trailing in a row, the bottom under them; a region the extension left out is empty")
    func expanded() {
        let drawn = DynamicIslandWriter.expanded(
            Self.activity("a1", views: Self.views("a1", regions: ["leading", "bottom"])), options: Self.options
        ).html
        #expect(Self.presentations(drawn) == ["expanded.leading", "expanded.center", "expanded.trailing", "expanded.bottom"])
        #expect(drawn.contains("a1 expanded.leading") && drawn.contains("a1 expanded.bottom"))
        #expect(!drawn.contains("a1 expanded.center"))
        #expect(drawn.contains("width:371px;height:160px"))
    }

    @Test("The Lock Screen shows ongoing and ended activities, not dismissed ones; one without views says so")
    func screen() {
        let drawn = LockScreen.screen(
            activities: [
                Self.activity("a1"), Self.activity("a2", .ended), Self.activity("a3", .dismissed),
                LockScreenActivity(id: "a4", app: "x", attributesType: "T", state: .active, views: nil),
            ],
            widgets: [], options: Self.options)
        #expect(drawn.html.contains("a1 lockScreen"))
        #expect(drawn.html.contains("a2 lockScreen"))
        #expect(!drawn.html.contains("a3"))
        #expect(drawn.html.contains("a4: no views yet"))
        #expect(drawn.html.contains("8:00"))
    }

    @Test("Many activities make the screen taller rather than hide them")
    func tall() {
        let activities = (1...6).map { Self.activity("a\($0)") }
        let drawn = LockScreen.screen(activities: activities, widgets: [], options: Self.options)
        #expect(drawn.height > LockScreen.screenHeight)
        for id in 1...6 { #expect(drawn.html.contains("a\(id) lockScreen")) }
    }

    @Test("The page: the screen, then each ongoing activity's island in every presentation", arguments: EscapingTests.hostile)
    func page(hostile: String) {
        let activities = [
            LockScreenActivity(
                id: hostile, app: hostile, attributesType: hostile, state: .active,
                views: Self.views(hostile)),
            Self.activity("a2", .ended),
        ]
        let page = LockScreen.page(activities: activities, widgets: [], options: Self.options, title: hostile)
        // The fragments hold every string from the daemon (the page adds only the stylesheet and LiveScript).
        let fragments = LockScreen.screen(activities: activities, widgets: [], options: Self.options).html
            + LockScreen.islands(activities[0], options: Self.options).html
        EscapingTests.expectNoInjection(fragments)
        #expect(!page.html.contains(hostile) || !hostile.contains("<"))
        #expect(page.html.contains("data-wh-island=\"compact\""))
        #expect(page.html.contains("data-wh-island=\"expanded\""))
        // The ended activity is on the Lock Screen but has no island of its own.
        #expect(page.html.components(separatedBy: "class=\"wh-islands\"").count == 2)
        #expect(page.width == LockScreen.screenWidth + 420 + 72)
    }
}
