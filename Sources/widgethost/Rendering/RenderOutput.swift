import ArgumentParser
import Foundation
import WidgetHostProtocol
import WidgetHostRendering

/// `--dark`, `--mode`, and where the drawing goes: `--html FILE` or `--png FILE`.
struct RenderOutputOptions: ParsableArguments {
    @Flag(help: "Draw in dark appearance.")
    var dark = false

    @Option(
        help: ArgumentHelp(
            "The rendering mode: fullColor (home screen), accented (tinted home screen), vibrant (lock screen). "
                + "Default: the family's own.", valueName: "mode"))
    var mode: String?

    @Option(help: ArgumentHelp("Write an HTML page (no network, counts live in a browser).", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write a PNG at the family's points × 3, through headless Chromium.", valueName: "file"))
    var png: String?

    var renderingMode: ViewEnvironment.RenderingMode? { mode.flatMap(ViewEnvironment.RenderingMode.init(rawValue:)) }

    var colorScheme: ViewEnvironment.ColorScheme { dark ? .dark : .light }

    func validate(allowPNG: Bool = true) throws {
        if let mode, ViewEnvironment.RenderingMode(rawValue: mode) == nil {
            throw ValidationError("--mode \(mode) is not a rendering mode; use fullColor, accented or vibrant")
        }
        if allowPNG {
            guard (html == nil) != (png == nil) else {
                throw ValidationError("give exactly one of --html FILE and --png FILE")
            }
        } else if html == nil {
            throw ValidationError("give --html FILE")
        }
    }
}

enum RenderFiles {
    /// Writes `page` to the HTML file, or screenshots it into the PNG file.
    static func write(page: String, width: Double, height: Double, scale: Double, _ output: RenderOutputOptions) throws {
        try write(page: page, width: width, height: height, scale: scale, html: output.html, png: output.png)
    }

    /// Writes `page` to the HTML file, or screenshots it into the PNG file (at most one is given);
    /// says so on stdout unless `announce` is false (stdout holds JSON).
    static func write(
        page: String, width: Double, height: Double, scale: Double, html: String?, png: String?, announce: Bool = true
    ) throws {
        if let html {
            do {
                try Data(page.utf8).write(to: URL(fileURLWithPath: html))
            } catch {
                Console.error("widgethost: cannot write \(html): \(error.localizedDescription)")
                throw ExitCode(73)
            }
            if announce { Console.output("wrote \(html)") }
        } else if let png {
            do {
                try ChromiumScreenshot.capture(
                    html: page, width: width, height: height, scale: scale, to: URL(fileURLWithPath: png))
            } catch {
                Console.error("widgethost: \(error)")
                throw ExitCode(error == .notInstalled ? 69 : 70)
            }
            if announce { Console.output("wrote \(png) (\(Int(width * scale))×\(Int(height * scale)) px)") }
        }
    }
}

/// Text from an extension, safe for a terminal: control characters (an escape sequence
/// could rewrite the screen) are shown as `\u{…}`.
enum TerminalText {
    static func safe(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
