import Foundation
import WidgetHostCore

/// An extension bundle on disk that passed every check: `NAME.appex/` with `Info.plist`,
/// the executable `CFBundleExecutable` names, and optionally `NAME.entitlements`.
/// Loading reads files only; no process is started (`initialize` runs later).
public struct ExtensionBundle: Sendable, Hashable {
    /// The extension point every widget extension declares.
    public static let widgetKitExtensionPoint = "com.apple.widgetkit-extension"
    /// The entitlement listing the app groups whose containers the extension may use.
    public static let appGroupsEntitlement = "com.apple.security.application-groups"
    /// The entitlement that lets the extension open outgoing network connections (the sandbox
    /// refuses TCP and every internet socket without it).
    public static let networkClientEntitlement = "com.apple.security.network.client"

    /// The `NAME.appex` directory.
    public var directory: URL
    /// `CFBundleIdentifier`, e.g. `com.birthdayreminders.widget`.
    public var bundleID: String
    /// `CFBundleDisplayName`, else `CFBundleName`, else the bundle id.
    public var displayName: String
    /// The file `CFBundleExecutable` names, inside the bundle.
    public var executable: URL
    /// The containing app: the bundle id minus its last component (`com.birthdayreminders`).
    public var appID: String
    /// `com.apple.security.application-groups` from the entitlements, in file order without repeats.
    public var appGroups: [String]
    /// The entitlements file read, if there is one.
    public var entitlements: URL?
    /// `com.apple.security.network.client` is true in the entitlements.
    public var networkClient: Bool
    /// Things that do not stop the bundle from loading but that its developer should know
    /// (no entitlements file, so no app groups).
    public var warnings: [String]
    /// The entitlements grant `com.apple.developer.activity-push-notification-frequent-updates`.
    public var frequentPushUpdates = false

    public init(
        directory: URL, bundleID: String, displayName: String, executable: URL, appGroups: [String],
        entitlements: URL? = nil, networkClient: Bool = false, warnings: [String] = []
    ) {
        self.directory = directory
        self.bundleID = bundleID
        self.displayName = displayName
        self.executable = executable
        self.appID = Self.appID(ofBundleID: bundleID)
        self.appGroups = appGroups
        self.entitlements = entitlements
        self.networkClient = networkClient
        self.warnings = warnings
    }

    /// `com.birthdayreminders.widget` → `com.birthdayreminders`.
    public static func appID(ofBundleID bundleID: String) -> String {
        ExtensionDescriptor.appID(forExtension: bundleID)
    }

    /// Reads and checks the bundle at `directory`; the problem names the file and the fix.
    public static func load(at directory: URL) throws(BundleProblem) -> ExtensionBundle {
        try BundleReader(directory: directory).load()
    }
}

/// The checks of one bundle, in the order a developer would fix them.
private struct BundleReader {
    let directory: URL
    /// The bundle as given, for messages (`Examples/Foo.appex`).
    let shown: String

    init(directory: URL) {
        self.directory = directory
        var shown = directory.relativePath
        while shown.count > 1, shown.hasSuffix("/") { shown.removeLast() }
        self.shown = shown
    }

    private var name: String { directory.lastPathComponent }
    private var infoPlist: String { shown + "/Info.plist" }

    private func problem(_ kind: BundleProblem.Kind, _ file: String, _ message: String) -> BundleProblem {
        BundleProblem(kind, bundle: shown, file: file, message: message)
    }

    func load() throws(BundleProblem) -> ExtensionBundle {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw problem(.notADirectory, shown, "no such directory; check plugins.paths or the bundle's name")
        }
        guard isDirectory.boolValue else {
            throw problem(.notADirectory, shown, "is a file, not a bundle directory; an extension is a directory NAME.appex")
        }
        guard directory.pathExtension == "appex", name.count > ".appex".count else {
            let base = name.hasSuffix(".") ? String(name.dropLast()) : name
            throw problem(
                .notAppex, shown,
                "an extension bundle is a directory named NAME.appex; rename it to \(base.isEmpty ? "NAME" : base).appex")
        }

        let info = try readInfoPlist()
        let bundleID = try identifier(info)
        let executable = try executable(info)
        try checkExtensionPoint(info)
        var warnings: [String] = []
        let displayName = displayName(info, bundleID: bundleID, warnings: &warnings)
        let (entitlements, appGroups, networkClient) = try readEntitlements(
            executableName: executable.lastPathComponent, warnings: &warnings)
        var bundle = ExtensionBundle(
            directory: directory, bundleID: bundleID, displayName: displayName, executable: executable,
            appGroups: appGroups, entitlements: entitlements, networkClient: networkClient, warnings: warnings)
        bundle.frequentPushUpdates =
            info[ActivityRules.frequentUpdatesInfoKey] as? Bool == true
            || entitlements.map(ExtensionBundle.grantsFrequentPushUpdates) ?? false
        return bundle
    }

    // MARK: - Info.plist

    private func readInfoPlist() throws(BundleProblem) -> [String: Any] {
        let path = directory.appendingPathComponent("Info.plist").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw problem(
                .infoPlistMissing, infoPlist,
                "file is missing; add an Info.plist with CFBundleIdentifier, CFBundleExecutable and NSExtension (without it the widget never appears)")
        }
        return try readDictionary(
            at: path, shownAs: infoPlist, kind: .infoPlistMalformed,
            fix: "fix the XML (plutil -lint on a Mac, xmllint --noout on Linux, show where)")
    }

    private func identifier(_ info: [String: Any]) throws(BundleProblem) -> String {
        let example = "\"com.example.app.widget\""
        guard let value = info["CFBundleIdentifier"] else {
            throw problem(
                .identifierMissing, infoPlist,
                "CFBundleIdentifier is missing; add the extension's id, the app's id plus one component, such as \(example)")
        }
        guard let id = value as? String else {
            throw wrongType("CFBundleIdentifier", value, fix: "write it as <string>com.example.app.widget</string>")
        }
        if id.contains("$(") {
            throw problem(
                .identifierInvalid, infoPlist,
                "CFBundleIdentifier is \(quoted(id)), an Xcode build setting that was never expanded; write the real id, such as \(example)")
        }
        guard id.contains(".") else {
            throw problem(
                .identifierInvalid, infoPlist,
                "CFBundleIdentifier \(quoted(id)) has no dot, so it names no containing app; use the app's id plus one component, such as \(example)")
        }
        let components = id.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = components.allSatisfy { component in
            !component.isEmpty && component.unicodeScalars.allSatisfy(Self.isIdentifierScalar)
        }
        guard allowed else {
            throw problem(
                .identifierInvalid, infoPlist,
                "CFBundleIdentifier \(quoted(id)) is not a bundle id; use letters, digits, \"-\" and \"_\" in non-empty components separated by dots, such as \(example)")
        }
        return id
    }

    private func executable(_ info: [String: Any]) throws(BundleProblem) -> URL {
        guard let value = info["CFBundleExecutable"] else {
            throw problem(
                .executableKeyMissing, infoPlist,
                "CFBundleExecutable is missing; add the file name of the extension's executable inside \(name)")
        }
        guard let executableName = value as? String else {
            throw wrongType("CFBundleExecutable", value, fix: "write the executable's file name as a <string>")
        }
        if executableName.contains("$(") {
            throw problem(
                .executableNameInvalid, infoPlist,
                "CFBundleExecutable is \(quoted(executableName)), an Xcode build setting that was never expanded; write the executable's file name")
        }
        guard !executableName.isEmpty, !executableName.contains("/"), executableName != ".", executableName != ".."
        else {
            throw problem(
                .executableNameInvalid, infoPlist,
                "CFBundleExecutable \(quoted(executableName)) is not a file name; name a file directly inside \(name), without \"/\"")
        }
        let url = directory.appendingPathComponent(executableName)
        let shownExecutable = shown + "/" + executableName
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            throw problem(
                .executableMissing, shownExecutable,
                "the executable CFBundleExecutable names does not exist; copy the built executable into \(name), or correct CFBundleExecutable in Info.plist")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw problem(
                .executableMissing, shownExecutable,
                "is not a file; CFBundleExecutable must name the executable file itself")
        }
        guard access(url.path, X_OK) == 0 else {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw problem(
                .executableNotExecutable, shownExecutable,
                "is not executable (mode \(String(repeating: "0", count: max(0, 4 - mode.count)) + mode)); run chmod +x \(shownExecutable)")
        }
        return url
    }

    private func checkExtensionPoint(_ info: [String: Any]) throws(BundleProblem) {
        let point = ExtensionBundle.widgetKitExtensionPoint
        guard let value = info["NSExtension"] else {
            throw problem(
                .extensionMissing, infoPlist,
                "NSExtension is missing; add an NSExtension dictionary with NSExtensionPointIdentifier = \"\(point)\" (without it the widget never appears)")
        }
        guard let nsExtension = value as? [String: Any] else {
            throw wrongType(
                "NSExtension", value, fix: "make it a <dict> holding NSExtensionPointIdentifier = \"\(point)\"")
        }
        guard let pointValue = nsExtension["NSExtensionPointIdentifier"] else {
            throw problem(
                .extensionPointMissing, infoPlist,
                "NSExtension.NSExtensionPointIdentifier is missing; add \"\(point)\" (without it the widget never appears)")
        }
        guard let identifier = pointValue as? String else {
            throw wrongType(
                "NSExtension.NSExtensionPointIdentifier", pointValue, fix: "write <string>\(point)</string>")
        }
        guard identifier == point else {
            let today = identifier == "com.apple.widget-extension" ? " (that is the old Today extension point)" : ""
            throw problem(
                .extensionPointWrong, infoPlist,
                "NSExtension.NSExtensionPointIdentifier is \(quoted(identifier))\(today), not \"\(point)\"; change it to \"\(point)\" (with any other value the widget never appears)")
        }
    }

    private func displayName(_ info: [String: Any], bundleID: String, warnings: inout [String]) -> String {
        for key in ["CFBundleDisplayName", "CFBundleName"] {
            guard let value = info[key] else { continue }
            guard let text = value as? String else {
                warnings.append("\(infoPlist): \(key) is \(Self.typeName(value)), not a string; it is ignored")
                continue
            }
            if text.contains("$(") {
                warnings.append(
                    "\(infoPlist): \(key) is \(quoted(text)), an Xcode build setting that was never expanded; it is ignored")
                continue
            }
            if !text.trimmingCharacters(in: .whitespaces).isEmpty { return text }
        }
        return bundleID
    }

    // MARK: - Entitlements

    private func readEntitlements(executableName: String, warnings: inout [String]) throws(BundleProblem)
        -> (URL?, [String], networkClient: Bool)
    {
        let base = String(name.dropLast(".appex".count))
        let preferred = "\(base).entitlements"
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let candidates = contents.filter { $0.hasSuffix(".entitlements") && !$0.hasPrefix(".") }.sorted()
        let chosen: String
        if candidates.contains(preferred) {
            chosen = preferred
        } else if candidates.contains("\(executableName).entitlements") {
            chosen = "\(executableName).entitlements"
        } else if candidates.count == 1 {
            chosen = candidates[0]
        } else if candidates.isEmpty {
            warnings.append(
                "\(shown): no .entitlements file, so the extension gets no app group containers; add \(preferred) with \(ExtensionBundle.appGroupsEntitlement) if it shares data with its app")
            return (nil, [], false)
        } else {
            throw problem(
                .entitlementsAmbiguous, shown,
                "\(candidates.count) .entitlements files (\(candidates.joined(separator: ", "))) and none named \(preferred); keep one, or name the extension's \(preferred)")
        }
        for other in candidates where other != chosen {
            warnings.append("\(shown)/\(other): ignored; the extension's entitlements are read from \(chosen)")
        }

        let url = directory.appendingPathComponent(chosen)
        let shownFile = shown + "/" + chosen
        let entitlements = try readDictionary(
            at: url.path, shownAs: shownFile, kind: .entitlementsMalformed,
            fix: "fix it, or remove it if the extension uses no app groups")
        let networkKey = ExtensionBundle.networkClientEntitlement
        let network = entitlements[networkKey]
        if let network, !(network is Bool) {
            throw problem(
                .wrongType, shownFile, "\(networkKey) is \(Self.typeName(network)), not a boolean; write <true/> or remove it")
        }
        let networkClient = network as? Bool ?? false
        let key = ExtensionBundle.appGroupsEntitlement
        guard let value = entitlements[key] else {
            warnings.append(
                "\(shownFile): no \(key), so the extension gets no app group containers; list the groups it shares with its app")
            return (url, [], networkClient)
        }
        guard let list = value as? [Any] else {
            throw problem(
                .wrongType, shownFile,
                "\(key) is \(Self.typeName(value)), not an array; write <array><string>group.com.example.app</string></array>")
        }
        var groups: [String] = []
        for element in list {
            guard let group = element as? String else {
                throw problem(
                    .wrongType, shownFile,
                    "\(key) holds \(Self.typeName(element)); list each app group as a <string>")
            }
            guard group.hasPrefix("group."), group.count > "group.".count else {
                throw problem(
                    .appGroupInvalid, shownFile,
                    "app group \(quoted(group)) does not start with \"group.\"; use an id such as \"group.com.example.app\", the same in the app and the extension")
            }
            let components = group.split(separator: ".", omittingEmptySubsequences: false)
            guard components.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(Self.isIdentifierScalar) }) else {
                throw problem(
                    .appGroupInvalid, shownFile,
                    "app group \(quoted(group)) may contain only letters, digits, \".\", \"-\" and \"_\"; use an id such as \"group.com.example.app\"")
            }
            if !groups.contains(group) { groups.append(group) }
        }
        return (url, groups, networkClient)
    }

    // MARK: - Property lists

    private func readDictionary(at path: String, shownAs shownFile: String, kind: BundleProblem.Kind, fix: String)
        throws(BundleProblem) -> [String: Any]
    {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = String(cString: strerror(access(path, R_OK) == 0 ? EIO : errno))
            throw problem(kind, shownFile, "cannot be read (\(reason)); make it readable by widgethostd")
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw problem(kind, shownFile, "not a valid property list (\(Self.reason(error))); \(fix)")
        }
        guard let dictionary = plist as? [String: Any] else {
            throw problem(
                kind, shownFile, "the top level is \(Self.typeName(plist)), not a dictionary; put the keys in a <dict>")
        }
        return dictionary
    }

    /// The parser's own words ("Close tag on line 3 does not match open tag dict"), which
    /// say where; the generic localized description does not.
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let debug = error.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { return debug }
        return error.localizedDescription
    }

    private func wrongType(_ key: String, _ value: Any, fix: String) -> BundleProblem {
        problem(.wrongType, infoPlist, "\(key) is \(Self.typeName(value)), not \(key == "NSExtension" ? "a dictionary" : "a string"); \(fix)")
    }

    static func typeName(_ value: Any) -> String {
        switch value {
        case is String: "a string"
        case is Bool: "a boolean"
        case is Int: "an integer"
        case is Double: "a real number"
        case is [Any]: "an array"
        case is [String: Any]: "a dictionary"
        case is Data: "data"
        case is Date: "a date"
        default: "a \(type(of: value))"
        }
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_": true
        default: false
        }
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
