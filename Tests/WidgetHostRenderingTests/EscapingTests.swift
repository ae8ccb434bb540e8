import Foundation
import Testing
import WidgetHostProtocol
import WidgetHostRendering

/// Everything an extension sends is untrusted: a hostile text, URL, image name, symbol name,
/// colour, font or alignment never reaches the page as markup.
@Suite struct EscapingTests {
    static let hostile = [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "'><svg onload=alert(1)>",
        "</div><iframe src=javascript:alert(1)>", "&lt;script&gt;", "\u{0}\u{7}line\nbreak",
    ]

    static func render(_ root: ViewNode, family: WidgetFamily = .systemMedium, images: any ImageSource = NoImages()) -> String {
        let archive = ViewArchive(family: family, root: root)
        return WidgetRenderer.render(archive, options: RenderOptions(at: Date(timeIntervalSince1970: 0), images: images)).html
    }

    /// The page's markup has no element or attribute the archive's strings could have made.
    static func expectNoInjection(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(MarkupCheck.violations(html) == [], sourceLocation: sourceLocation)
        for needle in ["<script", "<img src=x", "<svg onload", "<iframe"] {
            #expect(!html.contains(needle), "\(needle) reached the page", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: hostile)
    func hostileText(_ text: String) {
        let html = Self.render(ViewNode(.text([ArchiveTextRun(.string(text))])))
        Self.expectNoInjection(html)
        #expect(html.contains("&lt;") || !text.contains("<"))
    }

    @Test(arguments: hostile)
    func hostileLinkAndWidgetURL(_ url: String) {
        let node = ViewNode(
            .link(url: url, label: ViewNode(.text([ArchiveTextRun(.string("Open"))]))), modifiers: [.widgetURL(url)])
        Self.expectNoInjection(Self.render(node))
        // A URL is carried as data, never as a link the page would follow.
        #expect(!Self.render(node).contains("href="))
    }

    @Test(arguments: hostile)
    func hostileImageNamesAndPaths(_ name: String) {
        for source in [ArchiveImage.Source.system(name), .asset(name), .file(name), .file("/tmp/\(name)")] {
            let html = Self.render(ViewNode(.image(ArchiveImage(source, label: name))))
            Self.expectNoInjection(html)
        }
        Self.expectNoInjection(Self.render(ViewNode(.text([ArchiveTextRun(.symbol(name))]))))
    }

    @Test(arguments: hostile)
    func hostileStylesFontsAndAlignments(_ value: String) {
        let text = ViewNode(
            .text([ArchiveTextRun(.string("x"))]),
            modifiers: [
                .foregroundStyle(ArchiveStyle(.color(ArchiveColor(.system(value))))),
                .foregroundStyle(ArchiveStyle(.color(ArchiveColor(.named(value))))),
                .foregroundStyle(ArchiveStyle(.unknown(value))),
                .font(ArchiveFont(style: value, weight: value, design: value)), .fontWeight(value),
                .multilineTextAlignment(value), .frame(ArchiveFrame(alignment: value)), .contentTransition(value),
                .redacted(value), .widgetAccentedRenderingMode(value), .clipShape(ArchiveShape(type: value)),
                .background(style: nil, shape: ArchiveShape(type: value), view: nil, alignment: value),
                .unknown(type: value),
            ])
        let stack = ViewNode(.vstack(alignment: value, spacing: nil, children: [text]))
        let gauge = ViewNode(.gauge(ArchiveGauge(value: 0.5, style: value)))
        let unknown = ViewNode(.unknown(type: value))
        for node in [stack, gauge, unknown, ViewNode(.label(title: text, icon: unknown, style: value))] {
            let html = Self.render(node)
            Self.expectNoInjection(html)
            // Names are looked up, never written out: no value reaches a style attribute.
            #expect(!html.contains("style=\"\(value)"))
        }
    }

    @Test(arguments: hostile)
    func hostileWidgetIDAndTitle(_ value: String) {
        var options = RenderOptions(at: Date())
        options.widgetID = value
        let widget = WidgetRenderer.render(ViewArchive(family: .systemSmall, root: ViewNode(.empty)), options: options)
        Self.expectNoInjection(widget.html)
        let page = HTMLPage.single(widget, title: value)
        #expect(!page.contains("<title>\(value)"))
    }

    @Test func hostileJSONContent() {
        let html = WidgetRenderer.render(
            nil, content: ["name": "</pre><script>alert(1)</script>"], options: RenderOptions(at: Date())
        ).html
        Self.expectNoInjection(html)
    }

    @Test func notesAreEscapedInTheGallery() {
        let widget = WidgetRenderer.render(
            ViewArchive(family: .systemSmall, root: ViewNode(.unknown(type: "<script>x</script>"))),
            options: RenderOptions(at: Date()))
        let page = HTMLPage.gallery(title: "<b>t</b>", sections: [("<i>kind</i>", [("<u>caption</u>", widget)])])
        #expect(!page.contains("<script>x"))
        #expect(MarkupCheck.violations(page.components(separatedBy: "<body>")[1].components(separatedBy: "<script>")[0]) == [])
        #expect(!page.contains("<b>t</b>") && !page.contains("<i>kind</i>") && !page.contains("<u>caption</u>"))
    }
}

/// No remote images, and nothing outside the bundle and its app groups.
@Suite struct ImageSourceTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("wh-images-\(UUID().uuidString)")

    func setUp() throws -> (bundle: URL, group: URL, outside: URL) {
        let bundle = root.appendingPathComponent("Example.appex")
        let group = root.appendingPathComponent("AppGroups/group.example")
        let outside = root.appendingPathComponent("outside")
        for directory in [bundle.appendingPathComponent("Resources"), group, outside] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let png = Data(base64Encoded: String(FixedImages.png.dropFirst("data:image/png;base64,".count)))!
        try png.write(to: bundle.appendingPathComponent("Resources/logo.png"))
        try png.write(to: group.appendingPathComponent("photo.png"))
        try png.write(to: outside.appendingPathComponent("secret.png"))
        try Data("not an image".utf8).write(to: group.appendingPathComponent("fake.png"))
        try FileManager.default.createSymbolicLink(
            at: group.appendingPathComponent("link.png"), withDestinationURL: outside.appendingPathComponent("secret.png"))
        return (bundle, group, outside)
    }

    @Test func onlyTheBundleAndItsAppGroups() throws {
        let (bundle, group, outside) = try setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        let images = BundleImages(bundle: bundle, appGroupContainers: [group])
        #expect(images.image(asset: "logo").isFound)
        #expect(images.image(file: group.appendingPathComponent("photo.png").path).isFound)
        #expect(images.image(file: outside.appendingPathComponent("secret.png").path).reason?.contains("outside") == true)
        #expect(images.image(file: group.appendingPathComponent("../../outside/secret.png").path).reason?.contains("outside") == true)
        #expect(images.image(file: group.appendingPathComponent("link.png").path).reason?.contains("outside") == true)
        #expect(images.image(file: "https://example.com/a.png").reason?.contains("only files") == true)
        #expect(images.image(file: group.appendingPathComponent("fake.png").path).reason?.contains("not a PNG") == true)
        #expect(images.image(asset: "../outside/secret").reason?.contains("not an image name") == true)
        #expect(BundleImages(bundle: bundle, appGroupContainers: [group], maxBytes: 10).image(asset: "logo").reason?.contains("over 10 bytes") == true)
    }
}

extension ImageLookup {
    var isFound: Bool { if case .found = self { true } else { false } }
    var reason: String? { if case .refused(let reason) = self { reason } else { nil } }
}
