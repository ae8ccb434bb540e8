import Foundation
import Testing
import WidgetHostProtocol
import WidgetHostRendering

/// A real browser draws the page: headless Chromium screenshots a widget, and the PNG is the
/// family's points times the device scale. (`make test` installs chromium.)
@Suite struct ScreenshotTests {
    static let artifacts = GoldenFile.actualDirectory.deletingLastPathComponent().appendingPathComponent("screenshots")

    @Test(arguments: [WidgetFamily.systemSmall, .systemLarge, .accessoryRectangular])
    func pngIsPointsTimesScale(_ family: WidgetFamily) throws {
        let golden = family == .systemLarge ? GoldenCase.named("systemLarge") : family == .systemSmall ? GoldenCase.named("dark") : GoldenCase.named("vibrant")
        let widget = WidgetRenderer.render(golden.archive, options: golden.options)
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let png = Self.artifacts.appendingPathComponent("\(family.rawValue).png")
        try? FileManager.default.removeItem(at: png)
        try ChromiumScreenshot.capture(
            html: HTMLPage.single(widget, title: family.rawValue), width: widget.width, height: widget.height, scale: 3, to: png)
        let size = try #require(ChromiumScreenshot.pixelSize(of: Data(contentsOf: png)))
        let expected = DeviceTable.iPhone.size(of: family)
        #expect(size.width == Int(expected.width * 3) && size.height == Int(expected.height * 3))
    }

    @Test func missingChromiumSaysHowToInstallIt() {
        #expect(ChromiumScreenshot.executable(environment: ["PATH": "/nonexistent"]) == nil)
        #expect(ChromiumScreenshot.Failure.notInstalled.description.contains("apt-get install chromium"))
    }
}

/// The page's script keeps date-relative text counting in a real browser, with the same
/// arithmetic as the renderer: after a few (virtual) seconds, a timer and a relative date
/// read what the renderer would have written for that later instant.
@Suite struct LiveScriptTests {
    @Test func timersCountInChromium() throws {
        let chromium = try #require(ChromiumScreenshot.executable(), "chromium is not installed (make test-deps)")
        let at = GoldenCase.instant
        let archive = ViewArchive(
            family: .systemSmall,
            root: ViewNode(
                .vstack(
                    alignment: "center", spacing: nil,
                    children: [
                        ViewNode(.text([ArchiveTextRun(.timer(start: at - 60, end: at + 3661, countsDown: true, showsHours: true))])),
                        ViewNode(.text([ArchiveTextRun(.date(at + 8580, style: .relative))])),
                    ])))
        let widget = WidgetRenderer.render(archive, options: RenderOptions(at: at))
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID()).html")
        defer { try? FileManager.default.removeItem(at: page) }
        try Data(HTMLPage.single(widget, title: "live").utf8).write(to: page)

        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("live-profile-\(UUID())")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3500", "--user-data-dir=\(profile.path)",
            "--dump-dom", page.absoluteString,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        func text(_ style: String) -> String? {
            guard let start = dom.range(of: "data-wh-style=\"\(style)\"") else { return nil }
            let rest = dom[start.upperBound...]
            guard let open = rest.firstIndex(of: ">"), let close = rest[open...].firstIndex(of: "<") else { return nil }
            return String(rest[rest.index(after: open)..<close])
        }
        // Rendered for `at`: 1:01:01 and "2 hours, 23 minutes"; a few seconds later:
        let timer = try #require(text("timerInterval"))
        #expect(timer != "1:01:01", "the timer did not count")
        #expect(["1:00:59", "1:00:58", "1:00:57", "1:00:56"].contains(timer), "\(timer)")
        #expect(text("relative") == "2 hours, 22 minutes")
    }
}
