import Foundation
import Testing
import WidgetHostProtocol
import WidgetHostRendering

/// Archive → HTML for every view type and modifier, against the files in Goldens/.
/// Re-record: `WIDGETHOST_RECORD_GOLDENS=1 swift test --skip-build --filter WidgetHostRenderingTests`.
@Suite struct GoldenTests {
    @Test(arguments: GoldenCase.names)
    func golden(_ name: String) {
        GoldenFile.check(GoldenCase.named(name).html, named: name)
    }

    @Test func goldensHoldOnlyTheRenderersMarkup() {
        for name in GoldenCase.names {
            #expect(MarkupCheck.violations(GoldenCase.named(name).html) == [], "\(name)")
        }
    }

    @Test func renderingIsDeterministic() {
        for name in GoldenCase.names {
            #expect(GoldenCase.named(name).html == GoldenCase.named(name).html, "\(name) renders differently twice")
        }
    }

    @Test func archiveSurvivesTheWire() throws {
        // What the host stores is what it decoded: the same HTML from the decoded archive.
        for name in GoldenCase.names {
            let golden = GoldenCase.named(name)
            let decoded = try WireCoding.decode(ViewArchive.self, from: WireCoding.encode(golden.archive))
            #expect(decoded == golden.archive, "\(name) changes on the wire")
        }
    }

    /// Every golden case on one page, for a person to look at: `.build/golden-gallery.html`.
    @Test func galleryOfEveryCase() throws {
        let items = GoldenCase.names.map { name in
            let golden = GoldenCase.named(name)
            return (caption: name, widget: WidgetRenderer.render(golden.archive, options: golden.options))
        }
        let page = HTMLPage.gallery(title: "Every view and modifier", sections: [("golden cases", items)])
        let file = GoldenFile.actualDirectory.deletingLastPathComponent().appendingPathComponent("golden-gallery.html")
        try Data(page.utf8).write(to: file)
        #expect(MarkupCheck.violations(page.components(separatedBy: "<body>")[1].components(separatedBy: "<script>")[0]) == [])
    }

    @Test func aWholePage() {
        let widget = WidgetRenderer.render(GoldenCase.named("textDateStyles").archive, options: GoldenCase.named("text").options)
        GoldenFile.check(HTMLPage.single(widget, title: "Birthdays <small>"), named: "page")
    }
}
