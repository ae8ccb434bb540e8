import Foundation
import Testing
import WidgetHostProtocol
import WidgetHostRendering

/// A Live Activity's tints and URLs as the Lock Screen and the Dynamic Island draw them.
@Suite struct ActivityTintTests {
    static let options = RenderOptions(at: LockScreenTests.at)

    /// The pizza's views: a black Lock Screen with a white action, an orange keyline, the island's URL.
    static func tinted(lockScreenURL: String? = nil) -> ActivityViews {
        var lockScreen = LockScreenTests.text("a1 lockScreen")
        lockScreen.root.modifiers = [
            .activityBackgroundTint(ArchiveColor(.system("black"))),
            .activitySystemActionForegroundColor(ArchiveColor(.rgb(red: 1, green: 0.5, blue: 0))),
        ]
        if let lockScreenURL { lockScreen.root.modifiers.append(.widgetURL(lockScreenURL)) }
        var views = LockScreenTests.views("a1")
        views.result.lockScreen = lockScreen
        views.result.keylineTint = ArchiveColor(.system("orange"))
        views.result.widgetURL = "pizza://order/12345"
        return views
    }

    @Test("activityBackgroundTint colours the Lock Screen banner; without it the system's material shows")
    func backgroundTint() {
        let tinted = ActivityViewRenderer.render(
            Self.tinted().result.lockScreen, presentation: .lockScreen, activityID: "a1", options: Self.options)
        #expect(tinted.html.contains("background:rgb(0,0,0);"))
        let plain = ActivityViewRenderer.render(
            LockScreenTests.text("x"), presentation: .lockScreen, activityID: "a1", options: Self.options)
        #expect(plain.html.contains("background:rgba(245,245,247,.86)"))
        #expect(!plain.html.contains("background:rgb(0,0,0)"))
    }

    @Test("The island's widgetURL is every view's URL; a view's own widgetURL wins on that view")
    func urls() {
        let drawn = LockScreen.screen(
            activities: [LockScreenTests.activity("a1", views: Self.tinted())], widgets: [], options: Self.options
        ).html
        #expect(drawn.contains("data-wh-presentation=\"lockScreen\" data-wh-activity=\"a1\""))
        #expect(drawn.components(separatedBy: "data-wh-url=\"pizza://order/12345\"").count == 4)  // the Lock Screen view, compact leading and trailing
        let own = LockScreen.screen(
            activities: [LockScreenTests.activity("a1", views: Self.tinted(lockScreenURL: "pizza://track?o=1&x=\"<"))],
            widgets: [], options: Self.options
        ).html
        #expect(own.contains("data-wh-url=\"pizza://track?o=1&amp;x=&quot;&lt;\""))
    }

    @Test("keylineTint draws a thin line around the island in every presentation of that activity, and not around others")
    func keyline() {
        let tinted = LockScreenTests.activity("a1", views: Self.tinted())
        let orange = "box-shadow:0 0 0 1px rgb(255,159,10)"  // the dark variant: the island is dark
        #expect(DynamicIslandWriter.compact(tinted, options: Self.options).html.contains(orange))
        #expect(DynamicIslandWriter.minimal(tinted, options: Self.options).html.contains(orange))
        #expect(DynamicIslandWriter.expanded(tinted, options: Self.options).html.contains(orange))
        let two = DynamicIslandWriter.top([LockScreenTests.activity("a0"), tinted], options: Self.options).html
        #expect(two.components(separatedBy: "box-shadow").count == 2)
        #expect(two.contains("wh-island-detached\" style=\"\(orange)"))
        #expect(!DynamicIslandWriter.compact(LockScreenTests.activity("a2"), options: Self.options).html.contains("box-shadow"))
    }

    @Test("An ended activity shows the system's Clear action in activitySystemActionForegroundColor; an ongoing one does not")
    func systemAction() {
        let ended = LockScreen.screen(
            activities: [LockScreenTests.activity("a1", .ended, views: Self.tinted())], widgets: [], options: Self.options
        ).html
        #expect(ended.contains("<div class=\"wh-activity-action\" style=\"color:rgb(255,128,0)\">Clear</div>"))
        let plain = LockScreen.screen(
            activities: [LockScreenTests.activity("a2", .ended)], widgets: [], options: Self.options
        ).html
        #expect(plain.contains("<div class=\"wh-activity-action\" style=\"color:rgb(0,0,0)\">Clear</div>"))
        let ongoing = LockScreen.screen(
            activities: [LockScreenTests.activity("a1", views: Self.tinted())], widgets: [], options: Self.options
        ).html
        #expect(!ongoing.contains("wh-activity-action\""))
    }
}
