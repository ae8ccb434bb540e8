import Foundation
@testable import WidgetHostBundles

/// Extension bundles built in a temporary directory, as Xcode would lay them out:
/// `NAME.appex/` with `Info.plist`, `NAME.entitlements` and the executable.
final class BundleFixture {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("plugins-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The Info.plist of a well-formed widget extension.
    static func info(
        id: String = "com.birthdayreminders.widget", executable: String = "BirthdayRemindersWidget"
    ) -> [String: Any] {
        [
            "CFBundleIdentifier": id,
            "CFBundleDisplayName": "Birthday Widgets",
            "CFBundleName": "BirthdayRemindersWidget",
            "CFBundleExecutable": executable,
            "CFBundleInfoDictionaryVersion": "6.0",
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"],
        ]
    }

    static var entitlements: [String: Any] {
        ["com.apple.security.application-groups": ["group.com.birthdayreminders"]]
    }

    /// Writes a bundle and returns its directory. `info` or `entitlements` nil leaves the file out.
    @discardableResult
    func bundle(
        _ name: String = "BirthdayReminders.appex", in folder: String = "plugins",
        info: [String: Any]? = BundleFixture.info(), executable: String? = "BirthdayRemindersWidget",
        mode: mode_t = 0o755, entitlements: [String: Any]? = BundleFixture.entitlements,
        entitlementsName: String? = nil
    ) throws -> URL {
        let directory = root.appendingPathComponent(folder).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let info { try write(info, to: directory.appendingPathComponent("Info.plist")) }
        if let executable {
            let path = directory.appendingPathComponent(executable).path
            try "#!/bin/sh\nexit 0\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, mode)
        }
        if let entitlements {
            let base = name.hasSuffix(".appex") ? String(name.dropLast(6)) : name
            let file = entitlementsName ?? "\(base).entitlements"
            try write(entitlements, to: directory.appendingPathComponent(file))
        }
        return directory
    }

    func write(_ plist: [String: Any], to url: URL) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        try data.write(to: url)
    }

    func write(_ text: String, to url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The problem loading `directory` reports, or nil when it loads.
    func problem(_ directory: URL) -> BundleProblem? {
        do {
            _ = try ExtensionBundle.load(at: directory)
            return nil
        } catch {
            return error
        }
    }
}
