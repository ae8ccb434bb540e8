import ArgumentParser
import Foundation
import WidgetHostDoctor
import WidgetHostProtocol
import WidgetHostRendering

struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Draw every kind and family of a bundle: placeholder, snapshot and each timeline entry.",
        discussion: """
            Runs without a daemon, like `doctor`: starts the bundle's executable once per request \
            with the host's limits and its sample data, and draws what it answers, as the widget \
            gallery and Xcode's preview timeline show it — for every kind × family, the placeholder \
            (redacted), the snapshot, and each timeline entry in date order at its own date. \
            A request that fails is drawn as its failure. The page needs no network.

            Examples:
              widgethost gallery .build/examples/BirthdayReminders.appex --html gallery.html
              widgethost gallery MyWidget.appex --now 2026-02-15T08:00:00Z --dark --html dark.html
            """
    )

    @Argument(help: ArgumentHelp("The extension bundle, a NAME.appex directory.", valueName: "bundle"), completion: .directory)
    var bundle: String

    @Option(
        help: ArgumentHelp(
            "Ask at this instant (RFC 3339): `now`, and the extension's own clock through libfaketime.",
            valueName: "date"))
    var now: String?

    @OptionGroup var output: RenderOutputOptions

    func validate() throws {
        try output.validate(allowPNG: false)
        if let now, RFC3339.parse(now) == nil {
            throw ValidationError("--now \(now) is not an RFC 3339 date; write it like 2026-02-15T08:00:00Z")
        }
    }

    func run() throws {
        var options = GalleryRun.Options()
        options.now = now.flatMap(RFC3339.parse)
        options.environment = ViewEnvironment(colorScheme: output.colorScheme, widgetRenderingMode: output.renderingMode ?? .fullColor)
        let run: GalleryRun
        do {
            run = try GalleryRun.collect(bundleAt: URL(fileURLWithPath: bundle), options: options)
        } catch {
            Console.error("widgethost: \(TerminalText.safe(error.description))")
            throw ExitCode(error.isFakeTimeMissing ? 69 : 1)
        }
        let page = GalleryPage.html(run, output)
        try RenderFiles.write(page: page, width: 0, height: 0, scale: 1, output)
    }
}

extension GalleryRun.Failure {
    var isFakeTimeMissing: Bool { if case .fakeTimeMissing = self { true } else { false } }
}

/// The gallery's page: a section per kind and family, one figure per placeholder, snapshot
/// and entry.
enum GalleryPage {
    static func html(_ run: GalleryRun, _ output: RenderOutputOptions) -> String {
        let images = BundleImages(bundle: run.bundle, appGroupContainers: run.appGroupContainers)
        var sections: [(heading: String, items: [(caption: String, widget: RenderedWidget)])] = []
        for widget in run.widgets {
            for family in widget.families {
                var options = RenderOptions(at: run.now, colorScheme: output.colorScheme, mode: output.renderingMode)
                options.family = family.family
                options.images = images
                var items: [(caption: String, widget: RenderedWidget)] = []
                var placeholderView: ViewArchive?
                switch family.placeholder {
                case .answered(let entry):
                    placeholderView = entry.view
                    var redacted = options
                    redacted.redacted = true
                    items.append(("placeholder", WidgetRenderer.render(entry.view, content: entry.content, options: redacted)))
                case .failed(let reason):
                    items.append(("placeholder failed", failure(reason, options)))
                }
                options.placeholder = placeholderView
                switch family.snapshot {
                case .answered(let entry):
                    items.append(("snapshot", WidgetRenderer.render(entry.view, content: entry.content, options: options)))
                case .failed(let reason):
                    items.append(("snapshot failed", failure(reason, options)))
                }
                var policy = ""
                switch family.timeline {
                case .answered(let timeline):
                    policy = " — policy \(timeline.policy)"
                    let entries = timeline.entries.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
                    for (index, entry) in entries.map(\.element).enumerated() {
                        var at = options
                        at.at = entry.date
                        items.append(
                            ("entry \(index + 1) of \(entries.count) · \(RFC3339.format(entry.date))",
                             WidgetRenderer.render(entry.view, content: entry.content, options: at)))
                    }
                case .failed(let reason):
                    items.append(("timeline failed", failure(reason, options)))
                }
                let name = widget.descriptor.displayName == widget.descriptor.kind
                    ? widget.descriptor.kind : "\(widget.descriptor.displayName) (\(widget.descriptor.kind))"
                sections.append(("\(name) · \(family.family.rawValue)\(policy)", items))
            }
        }
        return HTMLPage.gallery(
            title: "\(run.bundleID) — gallery at \(RFC3339.format(run.now))", sections: sections)
    }

    private static func failure(_ reason: String, _ options: RenderOptions) -> RenderedWidget {
        var widget = WidgetRenderer.render(nil, content: .string(reason), options: options)
        widget.notes.append(reason)
        return widget
    }
}
