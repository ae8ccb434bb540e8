import Foundation
import WidgetHostProtocol

/// The result of scanning `plugins.paths`.
public struct BundleScan: Sendable, Hashable {
    /// Bundles that passed every check, sorted by bundle id.
    public var bundles: [ExtensionBundle]
    /// Bundles that did not, in the order they were found, each with its sentence.
    public var skipped: [SkippedBundle]
    /// What the scan passed over without it being a bundle's fault: a plugin directory
    /// that does not exist, a directory listed twice, a directory that is not a bundle.
    public var notes: [String]

    public init(bundles: [ExtensionBundle] = [], skipped: [SkippedBundle] = [], notes: [String] = []) {
        self.bundles = bundles
        self.skipped = skipped
        self.notes = notes
    }

    /// Every bundle's warnings, for the log.
    public var warnings: [String] { bundles.flatMap(\.warnings) }
}

/// Finds the extension bundles in the plugin directories. Reads files only.
public enum BundleScanner {
    /// Scans each directory in order (entries sorted by name). A path that is itself a
    /// `NAME.appex` directory is loaded as a bundle. A bundle id found again later is
    /// skipped, the first one kept. Missing directories are noted, not errors.
    public static func scan(paths: [String]) -> BundleScan {
        let files = FileManager.default
        var scan = BundleScan()
        var scannedDirectories: [String: String] = [:]
        var loaded: [String: ExtensionBundle] = [:]

        func consider(_ directory: URL) {
            do {
                let bundle = try ExtensionBundle.load(at: directory)
                if let first = loaded[bundle.bundleID] {
                    let problem = BundleProblem(
                        .duplicateIdentifier, bundle: bundle.directory.relativePath,
                        file: bundle.directory.relativePath + "/Info.plist",
                        message: "CFBundleIdentifier \"\(bundle.bundleID)\" is already loaded from \(first.directory.relativePath); give this bundle its own identifier, or remove one of the two")
                    scan.skipped.append(problem.skipped)
                    return
                }
                loaded[bundle.bundleID] = bundle
            } catch {
                scan.skipped.append(error.skipped)
            }
        }

        for path in paths {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
                scan.notes.append("plugin directory \(path) does not exist; skipped")
                continue
            }
            guard isDirectory.boolValue else {
                scan.notes.append("plugin path \(path) is a file, not a directory; skipped")
                continue
            }
            let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
            if let first = scannedDirectories[real] {
                scan.notes.append("plugin directory \(path) is the same as \(first), already scanned; skipped")
                continue
            }
            scannedDirectories[real] = path
            let url = URL(fileURLWithPath: path, isDirectory: true)
            if url.pathExtension == "appex" {
                consider(url)
                continue
            }
            let names: [String]
            do {
                names = try files.contentsOfDirectory(atPath: path).sorted()
            } catch {
                let reason = String(cString: strerror(access(path, R_OK | X_OK) == 0 ? EIO : errno))
                scan.notes.append("plugin directory \(path) cannot be listed (\(reason)); skipped")
                continue
            }
            for name in names where !name.hasPrefix(".") {
                let entry = url.appendingPathComponent(name, isDirectory: true)
                var entryIsDirectory: ObjCBool = false
                guard files.fileExists(atPath: entry.path, isDirectory: &entryIsDirectory),
                    entryIsDirectory.boolValue
                else { continue }
                if entry.pathExtension == "appex" || files.fileExists(atPath: entry.appendingPathComponent("Info.plist").path) {
                    // A directory with an Info.plist but the wrong name is meant to be a bundle: say how to fix it.
                    consider(entry)
                } else {
                    scan.notes.append("\(entry.relativePath) is not a NAME.appex bundle; ignored")
                }
            }
        }
        scan.bundles = loaded.values.sorted { $0.bundleID < $1.bundleID }
        return scan
    }
}
