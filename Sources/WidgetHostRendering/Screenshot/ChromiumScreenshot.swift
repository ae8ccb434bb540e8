import Foundation

/// A PNG of a rendered page through headless Chromium (Debian's `chromium`): the page's
/// size in points times the device scale, in pixels. The one part of this module that runs
/// a process; the renderer itself never does.
public enum ChromiumScreenshot {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case notInstalled
        case failed(status: Int32, output: String)

        public var description: String {
            switch self {
            case .notInstalled:
                "PNG output needs headless Chromium, which is not installed; install it with `apt-get install chromium` "
                    + "(or set WIDGETHOST_CHROMIUM to its path), or use --html"
            case .failed(let status, let output):
                "chromium exited with status \(status): \(output.split(separator: "\n").suffix(3).joined(separator: " / "))"
            }
        }
    }

    /// `WIDGETHOST_CHROMIUM`, else `chromium` or `chromium-browser` on PATH.
    public static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let configured = environment["WIDGETHOST_CHROMIUM"], !configured.isEmpty {
            return FileManager.default.isExecutableFile(atPath: configured) ? configured : nil
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Writes `html` to a temporary file and screenshots it into `png`.
    public static func capture(html: String, width: Double, height: Double, scale: Double, to png: URL) throws(Failure) {
        guard let chromium = executable() else { throw .notInstalled }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("widgethost-shot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("page.html")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(html.utf8).write(to: page)
        } catch {
            throw .failed(status: -1, output: "cannot write \(page.path): \(error)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
            "--force-device-scale-factor=\(CSSNumber.format(scale))",
            "--window-size=\(Int(width.rounded())),\(Int(height.rounded()))",
            "--default-background-color=00000000",
            "--screenshot=\(png.path)", page.absoluteString,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { throw .failed(status: -1, output: "\(error)") }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: png.path) else {
            throw .failed(status: process.terminationStatus, output: text)
        }
    }

    /// A PNG's width and height in pixels, from its IHDR chunk.
    public static func pixelSize(of png: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](png.prefix(24))
        guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func int(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }
}
