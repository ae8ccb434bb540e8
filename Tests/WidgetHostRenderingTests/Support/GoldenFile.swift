import Foundation
import Testing

/// Golden files: `Goldens/NAME.html` holds the expected output. A mismatch fails with the
/// first differing lines and writes the actual output beside the build
/// (`.build/goldens-actual/NAME.html`) for `diff`. To re-record after an intended change:
///
///     WIDGETHOST_RECORD_GOLDENS=1 swift test --skip-build --filter WidgetHostRenderingTests
///
/// then review `git diff Tests/WidgetHostRenderingTests/Goldens`.
enum GoldenFile {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens")
    static let actualDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/goldens-actual")

    static var recording: Bool { ProcessInfo.processInfo.environment["WIDGETHOST_RECORD_GOLDENS"] == "1" }

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent(name + ".html")
        // One element per line, so that a diff points at the node that changed.
        let text = actual.replacingOccurrences(of: "><", with: ">\n<") + "\n"
        if recording {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: file)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record(
                "no golden file \(file.path); record it with WIDGETHOST_RECORD_GOLDENS=1 swift test --skip-build --filter WidgetHostRenderingTests",
                sourceLocation: sourceLocation)
            return
        }
        guard expected != text else { return }
        try? FileManager.default.createDirectory(at: actualDirectory, withIntermediateDirectories: true)
        let actualFile = actualDirectory.appendingPathComponent(name + ".html")
        try? Data(text.utf8).write(to: actualFile)
        Issue.record(
            Comment(
                rawValue: "\(name) differs from its golden file:\n\(diff(expected, text))\nfull output: \(actualFile.path) "
                    + "(diff it with \(file.path)); if the change is intended, re-record with WIDGETHOST_RECORD_GOLDENS=1"),
            sourceLocation: sourceLocation)
    }

    /// The first differing lines with two lines of context.
    static func diff(_ expected: String, _ actual: String) -> String {
        let a = expected.components(separatedBy: "\n")
        let b = actual.components(separatedBy: "\n")
        let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        var lines: [String] = []
        for index in max(0, first - 2)..<min(max(a.count, b.count), first + 3) {
            let left = index < a.count ? a[index] : "(end)"
            let right = index < b.count ? b[index] : "(end)"
            if left == right {
                lines.append("  \(index + 1)  \(left)")
            } else {
                lines.append("- \(index + 1)  \(left)")
                lines.append("+ \(index + 1)  \(right)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
