import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostBundles

@Suite("Plugin scanning")
struct BundleScannerTests {
    let fixture: BundleFixture

    init() throws {
        fixture = try BundleFixture()
    }

    private func path(_ folder: String) -> String { fixture.root.appendingPathComponent(folder).path }

    @Test("Bundles from every plugin directory, sorted by id; broken ones skipped with their reason")
    func scan() throws {
        try fixture.bundle("Weight.appex", in: "system", info: BundleFixture.info(id: "com.w8trackr.widget"))
        try fixture.bundle("Birthday.appex", in: "local")
        let broken = try fixture.bundle("Broken.appex", in: "system", mode: 0o644)
        let scan = BundleScanner.scan(paths: [path("system"), path("local")])
        #expect(scan.bundles.map(\.bundleID) == ["com.birthdayreminders.widget", "com.w8trackr.widget"])
        #expect(scan.skipped.count == 1)
        #expect(scan.skipped.first?.path == broken.path)
        #expect(
            scan.skipped.first?.reason
                == "\(broken.path)/BirthdayRemindersWidget: is not executable (mode 0644); run chmod +x \(broken.path)/BirthdayRemindersWidget")
        #expect(scan.notes.isEmpty)
    }

    @Test("A plugin directory that does not exist is passed over with a note")
    func missingDirectory() throws {
        try fixture.bundle(in: "local")
        let scan = BundleScanner.scan(paths: ["/nonexistent/widgethost/plugins", path("local")])
        #expect(scan.bundles.count == 1)
        #expect(scan.skipped.isEmpty)
        #expect(scan.notes == ["plugin directory /nonexistent/widgethost/plugins does not exist; skipped"])
    }

    @Test("A bundle id found twice: the first in path order is kept, the later skipped naming the first")
    func duplicateIdentifier() throws {
        let first = try fixture.bundle("Birthday.appex", in: "system")
        let second = try fixture.bundle("BirthdayCopy.appex", in: "local")
        let scan = BundleScanner.scan(paths: [path("system"), path("local")])
        #expect(scan.bundles.map(\.directory.path) == [first.path])
        #expect(
            scan.skipped == [
                SkippedBundle(
                    path: second.path,
                    reason: "\(second.path)/Info.plist: CFBundleIdentifier \"com.birthdayreminders.widget\" is already loaded from \(first.path); give this bundle its own identifier, or remove one of the two"
                )
            ])
        // The other order keeps the other one.
        #expect(BundleScanner.scan(paths: [path("local"), path("system")]).bundles.map(\.directory.path) == [second.path])
    }

    @Test("Within a directory, bundles are considered in name order, so the same one always wins")
    func nameOrder() throws {
        let a = try fixture.bundle("A.appex")
        try fixture.bundle("B.appex")
        let scan = BundleScanner.scan(paths: [path("plugins")])
        #expect(scan.bundles.map(\.directory.path) == [a.path])
        #expect(scan.skipped.count == 1)
    }

    @Test("A directory with an Info.plist but not named .appex is skipped with the fix; others are noted; files ignored")
    func strayEntries() throws {
        let misnamed = try fixture.bundle("Birthday", in: "plugins")
        try FileManager.default.createDirectory(
            at: fixture.root.appendingPathComponent("plugins/docs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: fixture.root.appendingPathComponent("plugins/.cache"), withIntermediateDirectories: true)
        try fixture.write("read me", to: fixture.root.appendingPathComponent("plugins/README"))
        let scan = BundleScanner.scan(paths: [path("plugins")])
        #expect(scan.bundles.isEmpty)
        #expect(
            scan.skipped == [
                SkippedBundle(
                    path: misnamed.path,
                    reason: "\(misnamed.path): an extension bundle is a directory named NAME.appex; rename it to Birthday.appex")
            ])
        #expect(scan.notes == ["\(path("plugins"))/docs is not a NAME.appex bundle; ignored"])
    }

    @Test("A plugin path may name a bundle directly")
    func bundlePath() throws {
        let directory = try fixture.bundle()
        let scan = BundleScanner.scan(paths: [directory.path])
        #expect(scan.bundles.map(\.bundleID) == ["com.birthdayreminders.widget"])
    }

    @Test("A plugin path that is a file, or the same directory listed twice, is noted")
    func oddPaths() throws {
        try fixture.bundle()
        let file = fixture.root.appendingPathComponent("plugins.txt")
        try fixture.write("", to: file)
        try FileManager.default.createSymbolicLink(
            atPath: path("alias"), withDestinationPath: path("plugins"))
        let scan = BundleScanner.scan(paths: [file.path, path("plugins"), path("alias")])
        #expect(scan.bundles.count == 1)
        #expect(scan.skipped.isEmpty)
        #expect(
            scan.notes == [
                "plugin path \(file.path) is a file, not a directory; skipped",
                "plugin directory \(path("alias")) is the same as \(path("plugins")), already scanned; skipped",
            ])
    }

    @Test("A bundle that is a symbolic link to a directory is followed")
    func symlinkedBundle() throws {
        let real = try fixture.bundle("Birthday.appex", in: "opt")
        try FileManager.default.createDirectory(
            at: fixture.root.appendingPathComponent("plugins"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("plugins/Birthday.appex"), withDestinationPath: real.path)
        let scan = BundleScanner.scan(paths: [path("plugins")])
        #expect(scan.bundles.map(\.directory.path) == [path("plugins/Birthday.appex")])
    }

    @Test("Bundle warnings are gathered for the log")
    func warnings() throws {
        try fixture.bundle(entitlements: nil)
        let scan = BundleScanner.scan(paths: [path("plugins")])
        #expect(scan.warnings.count == 1)
        #expect(scan.warnings.first?.contains("no .entitlements file") == true)
    }

    @Test("The scan is what the daemon's catalog loader takes: bundles found, broken ones skipped")
    func catalogInput() throws {
        let directory = try fixture.bundle()
        let broken = try fixture.bundle("Broken.appex", info: nil)
        let scan = BundleScanner.scan(paths: [path("plugins")])
        #expect(scan.bundles.map(\.bundleID) == ["com.birthdayreminders.widget"])
        #expect(scan.bundles.first?.appID == "com.birthdayreminders")
        #expect(scan.bundles.first?.executable.path == directory.path + "/BirthdayRemindersWidget")
        #expect(scan.bundles.first?.appGroups == ["group.com.birthdayreminders"])
        #expect(scan.skipped.map(\.path) == [broken.path])
    }

    @Test("Nothing to scan is an empty scan")
    func empty() {
        #expect(BundleScanner.scan(paths: []) == BundleScan())
    }
}
