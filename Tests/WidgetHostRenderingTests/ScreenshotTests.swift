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
