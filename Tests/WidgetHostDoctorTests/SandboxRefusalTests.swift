import Foundation
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostRunner
@testable import WidgetHostDoctor

/// How the doctor learns which path the sandbox refused: from the words each runtime uses
/// for EACCES, checked against the sandbox's own grants (nothing runs here; the fixture
/// ReadsOtherGroup does it for real in DoctorPitfallTests).
@Suite("The doctor names the path the sandbox refused, and the fix")
struct SandboxRefusalTests {
    static let root = "/tmp/ws/run-3"
    static let reach = SandboxCheck.Reach(
        launch: ExtensionLaunch(
            bundleID: "com.example.w", executable: "/plugins/W.appex/widget", directory: "/plugins/W.appex",
            environment: ["WIDGETHOST_APP_GROUPS": "group.com.example.w=\(root)/group.com.example.w"]),
        groupsRoot: root, limits: ExtensionLimits())

    struct Case: Sendable, CustomTestStringConvertible {
        var runtime: String
        var line: String
        var path: String?
        var place: SandboxCheck.Refusal.Place?
        var testDescription: String { runtime }
    }

    static let cases = [
        Case(
            runtime: "Python, another app's group",
            line: "PermissionError: [Errno 13] Permission denied: '\(root)/group.com.example.other/widget.json'",
            path: "\(root)/group.com.example.other/widget.json", place: .otherGroup("group.com.example.other")),
        Case(
            runtime: "Foundation, a file outside every container",
            line: #"Error Domain=NSCocoaErrorDomain Code=257 "The file “x.json” couldn’t be opened because you don’t have permission to view it." UserInfo={NSFilePath=/home/dev/x.json, NSUnderlyingError=0x1 {Error Domain=NSPOSIXErrorDomain Code=13 "Permission denied"}}"#,
            path: "/home/dev/x.json", place: .outside),
        Case(
            runtime: "C's strerror, a write into its bundle",
            line: "fopen /plugins/W.appex/cache.db: Permission denied", path: "/plugins/W.appex/cache.db", place: .bundle),
        Case(
            runtime: "a write into the system",
            line: "open(\"/usr/share/w/state\"): Operation not permitted", path: "/usr/share/w/state", place: .readOnly),
        Case(
            runtime: "a denial of a path the sandbox grants (its own container: the file's mode)",
            line: "PermissionError: [Errno 13] Permission denied: '\(root)/group.com.example.w/locked'",
            path: nil, place: nil),
        Case(
            runtime: "a path in a line that reports no denial",
            line: "FileNotFoundError: [Errno 2] No such file or directory: '/home/dev/x.json'", path: nil, place: nil),
    ]

    @Test("Each runtime's denial names the path, placed against the sandbox's grants", arguments: cases)
    func refusal(_ example: Case) {
        let found = SandboxCheck.refusals(in: [example.line], reach: Self.reach)
        #expect(found.first?.path == example.path)
        #expect(found.first?.place == example.place)
    }

    @Test("Each place has its fix: the App Group entitlement, or the container")
    func fixes() {
        let other = SandboxCheck.explain(
            .init(path: "x", place: .otherGroup("group.com.example.other")), reach: Self.reach, entitlements: "W.entitlements")
        #expect(other.fix.contains("add <string>group.com.example.other</string> to com.apple.security.application-groups in W.entitlements"))
        let outside = SandboxCheck.explain(.init(path: "x", place: .outside), reach: Self.reach, entitlements: "W.entitlements")
        #expect(outside.fix.contains("into group group.com.example.w's container (FileManager.containerURL(forSecurityApplicationGroupIdentifier: \"group.com.example.w\"))"))
        let bundle = SandboxCheck.explain(.init(path: "x", place: .bundle), reach: Self.reach, entitlements: "W.entitlements")
        #expect(bundle.what == "its own bundle, which is read-only")
    }
}
