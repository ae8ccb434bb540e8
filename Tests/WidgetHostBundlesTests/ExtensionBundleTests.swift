import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostBundles

@Suite("Plugin bundles")
struct ExtensionBundleTests {
    let fixture: BundleFixture

    init() throws {
        fixture = try BundleFixture()
    }

    // MARK: - A good bundle

    @Test("A well-formed bundle loads with its id, app, name, executable and app groups")
    func validBundle() throws {
        let directory = try fixture.bundle()
        let bundle = try ExtensionBundle.load(at: directory)
        #expect(bundle.bundleID == "com.birthdayreminders.widget")
        #expect(bundle.appID == "com.birthdayreminders")
        #expect(bundle.displayName == "Birthday Widgets")
        #expect(bundle.executable.path == directory.appendingPathComponent("BirthdayRemindersWidget").path)
        #expect(bundle.directory == directory)
        #expect(bundle.appGroups == ["group.com.birthdayreminders"])
        #expect(bundle.entitlements?.lastPathComponent == "BirthdayReminders.entitlements")
        #expect(bundle.warnings.isEmpty)
    }

    @Test("The frequent-updates entitlement set to true raises the app's push budget; absent or false does not")
    func frequentPushUpdates() throws {
        var granted = BundleFixture.entitlements
        granted["com.apple.developer.activity-push-notification-frequent-updates"] = true
        let bundle = try ExtensionBundle.load(at: try fixture.bundle(entitlements: granted))
        #expect(bundle.frequentPushUpdates)
        #expect(bundle.descriptor(widgets: []).frequentPushUpdates)
        var denied = BundleFixture.entitlements
        denied["com.apple.developer.activity-push-notification-frequent-updates"] = false
        #expect(!(try ExtensionBundle.load(at: try fixture.bundle("Other.appex", entitlements: denied)).frequentPushUpdates))
        #expect(!(try ExtensionBundle.load(at: try fixture.bundle("Plain.appex")).frequentPushUpdates))
    }

    @Test("Apple's Info.plist key NSSupportsLiveActivitiesFrequentUpdates = true raises it too; false does not")
    func frequentUpdatesInfoKey() throws {
        var info = BundleFixture.info()
        info["NSSupportsLiveActivitiesFrequentUpdates"] = true
        let bundle = try ExtensionBundle.load(at: try fixture.bundle("Keyed.appex", info: info))
        #expect(bundle.frequentPushUpdates)
        #expect(bundle.descriptor(widgets: []).frequentPushUpdates)
        info["NSSupportsLiveActivitiesFrequentUpdates"] = false
        #expect(!(try ExtensionBundle.load(at: try fixture.bundle("Unkeyed.appex", info: info)).frequentPushUpdates))
    }

    @Test(
        "The app id is the bundle id minus its last component",
        arguments: [
            ("com.birthdayreminders.widget", "com.birthdayreminders"), ("app.lucidpal.widgets", "app.lucidpal"),
            ("com.example.widget", "com.example"),
        ])
    func appID(bundleID: String, app: String) {
        #expect(ExtensionBundle.appID(ofBundleID: bundleID) == app)
    }

    @Test("The display name falls back to CFBundleName, then to the bundle id")
    func displayNameFallback() throws {
        var info = BundleFixture.info()
        info["CFBundleDisplayName"] = nil
        #expect(try ExtensionBundle.load(at: fixture.bundle("A.appex", info: info)).displayName == "BirthdayRemindersWidget")
        info["CFBundleName"] = nil
        #expect(try ExtensionBundle.load(at: fixture.bundle("B.appex", info: info)).displayName == "com.birthdayreminders.widget")
        info["CFBundleName"] = "$(PRODUCT_NAME)"
        let bundle = try ExtensionBundle.load(at: fixture.bundle("C.appex", info: info))
        #expect(bundle.displayName == "com.birthdayreminders.widget")
        #expect(
            bundle.warnings == [
                "\(fixture.root.path)/plugins/C.appex/Info.plist: CFBundleName is \"$(PRODUCT_NAME)\", an Xcode build setting that was never expanded; it is ignored"
            ])
    }

    @Test("Messages name files as the bundle path was given, relative or absolute")
    func relativeNames() throws {
        var info = BundleFixture.info()
        info["NSExtension"] = [String: Any]()
        try fixture.bundle("Foo.appex", in: "Examples", info: info)
        let base = URL(fileURLWithPath: fixture.root.path, isDirectory: true)
        let relative = URL(fileURLWithPath: "Examples/Foo.appex", relativeTo: base)
        #expect(
            fixture.problem(relative)?.description
                == "Examples/Foo.appex/Info.plist: NSExtension.NSExtensionPointIdentifier is missing; add \"com.apple.widgetkit-extension\" (without it the widget never appears)"
        )
        #expect(fixture.problem(relative)?.bundle == "Examples/Foo.appex")
    }

    // MARK: - The directory

    @Test("A directory not named NAME.appex is refused with the name to give it")
    func notAppex() throws {
        let directory = try fixture.bundle("BirthdayReminders")
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .notAppex)
        #expect(problem.file == directory.path)
        #expect(
            problem.description
                == "\(directory.path): an extension bundle is a directory named NAME.appex; rename it to BirthdayReminders.appex")
    }

    @Test("A path that does not exist, or is a file, is not a bundle")
    func notADirectory() throws {
        let missing = fixture.root.appendingPathComponent("Gone.appex")
        #expect(
            fixture.problem(missing)?.description
                == "\(missing.path): no such directory; check plugins.paths or the bundle's name")
        let file = fixture.root.appendingPathComponent("File.appex")
        try fixture.write("not a bundle", to: file)
        #expect(
            fixture.problem(file)?.description
                == "\(file.path): is a file, not a bundle directory; an extension is a directory NAME.appex")
        #expect(fixture.problem(file)?.kind == .notADirectory)
    }

    // MARK: - Info.plist

    @Test("A bundle without Info.plist is refused")
    func infoPlistMissing() throws {
        let directory = try fixture.bundle(info: nil)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .infoPlistMissing)
        #expect(problem.file == directory.path + "/Info.plist")
        #expect(
            problem.message
                == "file is missing; add an Info.plist with CFBundleIdentifier, CFBundleExecutable and NSExtension (without it the widget never appears)"
        )
    }

    @Test("A malformed Info.plist is refused with the parser's own words")
    func infoPlistMalformed() throws {
        let directory = try fixture.bundle()
        try fixture.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>CFBundleIdentifier</key>
                <string>com.birthdayreminders.widget</strin>
            </dict>
            </plist>
            """, to: directory.appendingPathComponent("Info.plist"))
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .infoPlistMalformed)
        #expect(problem.file == directory.path + "/Info.plist")
        #expect(problem.message.hasPrefix("not a valid property list ("))
        #expect(problem.message.contains("line 5"))
        #expect(
            problem.message.hasSuffix(
                "); fix the XML (plutil -lint on a Mac, xmllint --noout on Linux, show where)"))
    }

    @Test("An Info.plist whose top level is not a dictionary is refused")
    func infoPlistNotADictionary() throws {
        let directory = try fixture.bundle()
        let data = try PropertyListSerialization.data(fromPropertyList: ["a", "b"], format: .xml, options: 0)
        try data.write(to: directory.appendingPathComponent("Info.plist"))
        #expect(
            fixture.problem(directory)?.description
                == "\(directory.path)/Info.plist: the top level is an array, not a dictionary; put the keys in a <dict>")
    }

    @Test("CFBundleIdentifier missing")
    func identifierMissing() throws {
        var info = BundleFixture.info()
        info["CFBundleIdentifier"] = nil
        let directory = try fixture.bundle(info: info)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .identifierMissing)
        #expect(
            problem.description
                == "\(directory.path)/Info.plist: CFBundleIdentifier is missing; add the extension's id, the app's id plus one component, such as \"com.example.app.widget\""
        )
    }

    @Test(
        "CFBundleIdentifier without a dot, unexpanded, with bad characters or not a string",
        arguments: [
            (
                "widget" as any Sendable,
                "CFBundleIdentifier \"widget\" has no dot, so it names no containing app; use the app's id plus one component, such as \"com.example.app.widget\""
            ),
            (
                "$(PRODUCT_BUNDLE_IDENTIFIER)",
                "CFBundleIdentifier is \"$(PRODUCT_BUNDLE_IDENTIFIER)\", an Xcode build setting that was never expanded; write the real id, such as \"com.example.app.widget\""
            ),
            (
                "com..widget",
                "CFBundleIdentifier \"com..widget\" is not a bundle id; use letters, digits, \"-\" and \"_\" in non-empty components separated by dots, such as \"com.example.app.widget\""
            ),
            (
                "com.example/x.widget",
                "CFBundleIdentifier \"com.example/x.widget\" is not a bundle id; use letters, digits, \"-\" and \"_\" in non-empty components separated by dots, such as \"com.example.app.widget\""
            ),
            (
                42,
                "CFBundleIdentifier is an integer, not a string; write it as <string>com.example.app.widget</string>"
            ),
        ])
    func identifierInvalid(value: any Sendable, message: String) throws {
        var info = BundleFixture.info()
        info["CFBundleIdentifier"] = value
        let directory = try fixture.bundle(info: info)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.file == directory.path + "/Info.plist")
        #expect(problem.message == message)
        #expect(problem.kind == (value is String ? .identifierInvalid : .wrongType))
    }

    // MARK: - The executable

    @Test("CFBundleExecutable missing")
    func executableKeyMissing() throws {
        var info = BundleFixture.info()
        info["CFBundleExecutable"] = nil
        let directory = try fixture.bundle(info: info)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .executableKeyMissing)
        #expect(
            problem.description
                == "\(directory.path)/Info.plist: CFBundleExecutable is missing; add the file name of the extension's executable inside BirthdayReminders.appex"
        )
    }

    @Test(
        "CFBundleExecutable that is not a file name inside the bundle",
        arguments: [
            (
                "../../bin/sh",
                "CFBundleExecutable \"../../bin/sh\" is not a file name; name a file directly inside BirthdayReminders.appex, without \"/\""
            ),
            (
                "$(EXECUTABLE_NAME)",
                "CFBundleExecutable is \"$(EXECUTABLE_NAME)\", an Xcode build setting that was never expanded; write the executable's file name"
            ),
            ("", "CFBundleExecutable \"\" is not a file name; name a file directly inside BirthdayReminders.appex, without \"/\""),
        ])
    func executableNameInvalid(name: String, message: String) throws {
        var info = BundleFixture.info()
        info["CFBundleExecutable"] = name
        let directory = try fixture.bundle(info: info)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .executableNameInvalid)
        #expect(problem.file == directory.path + "/Info.plist")
        #expect(problem.message == message)
    }

    @Test("The executable CFBundleExecutable names is missing")
    func executableMissing() throws {
        let directory = try fixture.bundle(executable: nil)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .executableMissing)
        #expect(problem.file == directory.path + "/BirthdayRemindersWidget")
        #expect(
            problem.message
                == "the executable CFBundleExecutable names does not exist; copy the built executable into BirthdayReminders.appex, or correct CFBundleExecutable in Info.plist"
        )
    }

    @Test("The executable is a directory")
    func executableIsADirectory() throws {
        let directory = try fixture.bundle(executable: nil)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("BirthdayRemindersWidget"), withIntermediateDirectories: true)
        #expect(
            fixture.problem(directory)?.description
                == "\(directory.path)/BirthdayRemindersWidget: is not a file; CFBundleExecutable must name the executable file itself")
    }

    @Test("The executable is not executable: the mode and the chmod that fixes it")
    func executableNotExecutable() throws {
        let directory = try fixture.bundle(mode: 0o644)
        let problem = try #require(fixture.problem(directory))
        let executable = directory.path + "/BirthdayRemindersWidget"
        #expect(problem.kind == .executableNotExecutable)
        #expect(problem.file == executable)
        #expect(problem.message == "is not executable (mode 0644); run chmod +x \(executable)")
    }

    // MARK: - NSExtension

    @Test("NSExtension missing")
    func extensionMissing() throws {
        var info = BundleFixture.info()
        info["NSExtension"] = nil
        let directory = try fixture.bundle(info: info)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .extensionMissing)
        #expect(
            problem.description
                == "\(directory.path)/Info.plist: NSExtension is missing; add an NSExtension dictionary with NSExtensionPointIdentifier = \"com.apple.widgetkit-extension\" (without it the widget never appears)"
        )
    }

    @Test("NSExtension that is not a dictionary")
    func extensionNotADictionary() throws {
        var info = BundleFixture.info()
        info["NSExtension"] = "com.apple.widgetkit-extension"
        let directory = try fixture.bundle(info: info)
        #expect(
            fixture.problem(directory)?.message
                == "NSExtension is a string, not a dictionary; make it a <dict> holding NSExtensionPointIdentifier = \"com.apple.widgetkit-extension\""
        )
    }

    @Test("NSExtensionPointIdentifier missing")
    func extensionPointMissing() throws {
        var info = BundleFixture.info()
        info["NSExtension"] = ["NSExtensionPrincipalClass": "Widget"]
        let directory = try fixture.bundle(info: info)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .extensionPointMissing)
        #expect(
            problem.description
                == "\(directory.path)/Info.plist: NSExtension.NSExtensionPointIdentifier is missing; add \"com.apple.widgetkit-extension\" (without it the widget never appears)"
        )
    }

    @Test(
        "NSExtensionPointIdentifier with another value names that value",
        arguments: [
            (
                "com.apple.widget-extension",
                "NSExtension.NSExtensionPointIdentifier is \"com.apple.widget-extension\" (that is the old Today extension point), not \"com.apple.widgetkit-extension\"; change it to \"com.apple.widgetkit-extension\" (with any other value the widget never appears)"
            ),
            (
                "com.apple.widgetkit-extension ",
                "NSExtension.NSExtensionPointIdentifier is \"com.apple.widgetkit-extension \", not \"com.apple.widgetkit-extension\"; change it to \"com.apple.widgetkit-extension\" (with any other value the widget never appears)"
            ),
        ])
    func extensionPointWrong(value: String, message: String) throws {
        var info = BundleFixture.info()
        info["NSExtension"] = ["NSExtensionPointIdentifier": value]
        let directory = try fixture.bundle(info: info)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .extensionPointWrong)
        #expect(problem.file == directory.path + "/Info.plist")
        #expect(problem.message == message)
    }

    // MARK: - Entitlements

    @Test("No entitlements file: the bundle loads without app groups, with a warning")
    func entitlementsMissing() throws {
        let directory = try fixture.bundle(entitlements: nil)
        let bundle = try ExtensionBundle.load(at: directory)
        #expect(bundle.appGroups == [])
        #expect(bundle.entitlements == nil)
        #expect(
            bundle.warnings == [
                "\(directory.path): no .entitlements file, so the extension gets no app group containers; add BirthdayReminders.entitlements with com.apple.security.application-groups if it shares data with its app"
            ])
    }

    @Test("An entitlements file without the app groups key: no app groups, with a warning")
    func entitlementsWithoutAppGroups() throws {
        let directory = try fixture.bundle(entitlements: ["com.apple.developer.healthkit": true])
        let bundle = try ExtensionBundle.load(at: directory)
        #expect(bundle.appGroups == [])
        #expect(
            bundle.warnings == [
                "\(directory.path)/BirthdayReminders.entitlements: no com.apple.security.application-groups, so the extension gets no app group containers; list the groups it shares with its app"
            ])
    }

    @Test("A malformed entitlements file is refused")
    func entitlementsMalformed() throws {
        let directory = try fixture.bundle()
        try fixture.write("<plist><dict><key>x</key>", to: directory.appendingPathComponent("BirthdayReminders.entitlements"))
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .entitlementsMalformed)
        #expect(problem.file == directory.path + "/BirthdayReminders.entitlements")
        #expect(problem.message.hasPrefix("not a valid property list ("))
        #expect(problem.message.hasSuffix("); fix it, or remove it if the extension uses no app groups"))
    }

    @Test(
        "App groups of the wrong type, or ids the host cannot make a container for",
        arguments: [
            (
                "group.com.birthdayreminders" as any Sendable,
                "com.apple.security.application-groups is a string, not an array; write <array><string>group.com.example.app</string></array>"
            ),
            (
                [7] as any Sendable,
                "com.apple.security.application-groups holds an integer; list each app group as a <string>"
            ),
            (
                ["com.birthdayreminders"] as any Sendable,
                "app group \"com.birthdayreminders\" does not start with \"group.\"; use an id such as \"group.com.example.app\", the same in the app and the extension"
            ),
            (
                ["group.../../etc"] as any Sendable,
                "app group \"group.../../etc\" may contain only letters, digits, \".\", \"-\" and \"_\"; use an id such as \"group.com.example.app\""
            ),
            (
                ["group.a=b:c"] as any Sendable,
                "app group \"group.a=b:c\" may contain only letters, digits, \".\", \"-\" and \"_\"; use an id such as \"group.com.example.app\""
            ),
        ])
    func appGroupsInvalid(value: any Sendable, message: String) throws {
        let directory = try fixture.bundle(entitlements: ["com.apple.security.application-groups": value])
        let problem = try #require(fixture.problem(directory))
        #expect(problem.file == directory.path + "/BirthdayReminders.entitlements")
        #expect(problem.message == message)
    }

    @Test("App groups keep their order and lose repeats")
    func appGroupsOrder() throws {
        let directory = try fixture.bundle(
            entitlements: ["com.apple.security.application-groups": ["group.b", "group.a", "group.b"]])
        #expect(try ExtensionBundle.load(at: directory).appGroups == ["group.b", "group.a"])
    }

    @Test("The single .entitlements file is read whatever its name")
    func singleEntitlements() throws {
        let directory = try fixture.bundle(entitlementsName: "Whatever.entitlements")
        let bundle = try ExtensionBundle.load(at: directory)
        #expect(bundle.entitlements?.lastPathComponent == "Whatever.entitlements")
        #expect(bundle.appGroups == ["group.com.birthdayreminders"])
    }

    @Test("With several .entitlements files, NAME.entitlements wins and the others are noted")
    func preferredEntitlements() throws {
        let directory = try fixture.bundle()
        try fixture.write(
            ["com.apple.security.application-groups": ["group.app"]],
            to: directory.appendingPathComponent("App.entitlements"))
        let bundle = try ExtensionBundle.load(at: directory)
        #expect(bundle.appGroups == ["group.com.birthdayreminders"])
        #expect(
            bundle.warnings == [
                "\(directory.path)/App.entitlements: ignored; the extension's entitlements are read from BirthdayReminders.entitlements"
            ])
    }

    @Test("With several .entitlements files, one named after the executable wins next")
    func executableEntitlements() throws {
        let directory = try fixture.bundle(entitlementsName: "BirthdayRemindersWidget.entitlements")
        try fixture.write(
            ["com.apple.security.application-groups": ["group.app"]],
            to: directory.appendingPathComponent("App.entitlements"))
        let bundle = try ExtensionBundle.load(at: directory)
        #expect(bundle.entitlements?.lastPathComponent == "BirthdayRemindersWidget.entitlements")
        #expect(bundle.appGroups == ["group.com.birthdayreminders"])
    }

    @Test("Several .entitlements files and none named after the bundle is ambiguous")
    func ambiguousEntitlements() throws {
        let directory = try fixture.bundle(entitlementsName: "B.entitlements")
        try fixture.write(BundleFixture.entitlements, to: directory.appendingPathComponent("A.entitlements"))
        let problem = try #require(fixture.problem(directory))
        #expect(problem.kind == .entitlementsAmbiguous)
        #expect(
            problem.description
                == "\(directory.path): 2 .entitlements files (A.entitlements, B.entitlements) and none named BirthdayReminders.entitlements; keep one, or name the extension's BirthdayReminders.entitlements"
        )
    }

    @Test("A problem becomes the wire's SkippedBundle: the bundle's path and the sentence")
    func skippedBundle() throws {
        let directory = try fixture.bundle(mode: 0o600)
        let problem = try #require(fixture.problem(directory))
        #expect(problem.skipped == SkippedBundle(path: directory.path, reason: problem.description))
    }
}
