import Foundation
import Testing
@testable import WidgetKit

@Suite("App group containers follow the extension's entitlements")
struct AppGroupTests {
    let environment = [
        "WIDGETHOST_APP_GROUPS":
            "group.com.birthdayreminders=/var/lib/widgethost/AppGroups/group.com.birthdayreminders:group.app.lucidpal=/srv/lucidpal"
    ]

    @Test("A listed group gives its directory")
    func listed() {
        let url = AppGroup.containerURL(
            forSecurityApplicationGroupIdentifier: "group.app.lucidpal", environment: environment)
        #expect(url == URL(fileURLWithPath: "/srv/lucidpal", isDirectory: true))
        #expect(url?.appendingPathComponent("lucidpal_widget_snapshot.json").path == "/srv/lucidpal/lucidpal_widget_snapshot.json")
    }

    @Test("A group the extension is not entitled to gives nil, like a missing App Group entitlement")
    func unlisted() {
        #expect(
            AppGroup.containerURL(forSecurityApplicationGroupIdentifier: "group.com.w8trackr", environment: environment) == nil)
        #expect(
            AppGroup.containerURL(forSecurityApplicationGroupIdentifier: "group.com", environment: environment) == nil)
    }

    @Test("Without WIDGETHOST_APP_GROUPS no group has a container")
    func noVariable() {
        #expect(
            AppGroup.containerURL(forSecurityApplicationGroupIdentifier: "group.com.birthdayreminders", environment: [:]) == nil)
    }

    @Test("Malformed pairs are skipped and the first of a repeated id wins")
    func malformedPairs() {
        let containers = AppGroup.containers(in: "::noequals:=/nobody:group.empty=:group.a=/a:group.a=/b:group.b=/b=c")
        #expect(containers == [
            "group.a": URL(fileURLWithPath: "/a", isDirectory: true),
            "group.b": URL(fileURLWithPath: "/b=c", isDirectory: true),
        ])
    }

    @Test("FileManager's method reads this process's environment")
    func fileManager() {
        // The test process is not an extension: unless the variable is set, nothing is listed.
        let listed = ProcessInfo.processInfo.environment["WIDGETHOST_APP_GROUPS"].map(AppGroup.containers(in:)) ?? [:]
        #expect(
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.not.entitled.test")
                == listed["group.not.entitled.test"])
        #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.not.entitled.test") == nil)
    }
}
