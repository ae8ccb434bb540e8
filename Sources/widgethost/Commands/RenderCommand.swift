import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRendering

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a widget as the device would show it: an HTML page or a PNG.",
        discussion: """
            Asks the daemon for the widget's timeline (the `timeline` method) and draws the entry \
            shown at --at (default: now) — the latest entry whose date has come, else the previous \
            timeline's, else the placeholder, redacted — from the view archive the extension sent, \
            at the family's size in points on an iPhone. Date-relative text (timers, "2 hours, 5 \
            minutes") is computed for --at, and counts on by itself in a browser. An entry with \
            only content (protocol version 1) is shown as its JSON.

            PNG output needs headless Chromium (Debian: apt-get install chromium); the PNG is the \
            family's points × 3 pixels.

            Examples:
              widgethost render w1 --html w1.html
              widgethost render w1 --at 2026-02-16T09:00:00Z --dark --png w1.png
              widgethost render w3 --mode vibrant --png lock.png
            """
    )

    @Argument(help: ArgumentHelp("The widget id (see `widgethost list`).", valueName: "id"))
    var id: String

    @Option(help: ArgumentHelp("The display instant (RFC 3339); default: now.", valueName: "date"))
    var at: String?

    @Option(help: ArgumentHelp("Draw at another family's size (the archive stays the one the extension sent).", valueName: "family"))
    var family: String?

    @OptionGroup var output: RenderOutputOptions

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        try output.validate()
        if let at, RFC3339.parse(at) == nil {
            throw ValidationError("--at \(at) is not an RFC 3339 date; write it like 2026-02-15T08:00:00Z")
        }
        if let family, case .failure(let unknown) = WidgetFamily.parse(family) {
            throw ValidationError(unknown.description)
        }
    }

    func run() throws {
        let instant = at.flatMap(RFC3339.parse) ?? Date()
        let (result, bundle): (TimelineResult, String?) = try connection.withClient { client in
            let result: TimelineResult = try client.call(.timeline, params: WidgetIDParams(id: id))
            let status: StatusResult = try client.call(.status, params: StatusParams(id: id))
            let extensions: ExtensionsResult = try client.call(.extensions)
            let owner = status.widgets.first?.widget.extension
            return (result, extensions.loaded.first { $0.id == owner }?.path)
        }
        let shown = CurrentEntryRule.entry(
            at: instant, entries: result.entries, previous: result.previousEntry, placeholder: result.placeholder)
        var options = RenderOptions(at: instant, colorScheme: output.colorScheme, mode: output.renderingMode)
        options.family = family.flatMap(WidgetFamily.init(rawValue:)) ?? result.family
        options.redacted = shown.source == .placeholder
        options.placeholder = result.placeholder?.view
        options.widgetID = id
        if let bundle { options.images = BundleImages(bundle: URL(fileURLWithPath: bundle), appGroupContainers: []) }
        let widget = WidgetRenderer.render(shown.entry?.view, content: shown.entry?.content ?? .null, options: options)
        for note in widget.notes { Console.error("note: \(TerminalText.safe(note))") }
        if shown.entry == nil { Console.error("note: \(id) has nothing to show yet (no timeline and no placeholder)") }
        let page = HTMLPage.single(widget, title: "\(id) at \(RFC3339.format(instant))")
        try RenderFiles.write(page: page, width: widget.width, height: widget.height, scale: options.device.scale, output)
    }
}
