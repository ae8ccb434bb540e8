import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// The catalog a scenario implies: real bundles (asked `initialize` under libfaketime) and one
/// synthetic extension per app for the widgets with a `provider`.
struct SimulationSetup {
    enum Source {
        case provider(SyntheticProvider)
        case bundle(FakeTimeExtension)
    }

    private(set) var descriptors: [ExtensionDescriptor] = []
    private var bundles: [String: FakeTimeExtension] = [:]
    private var providers: [String: [String: SyntheticProvider]] = [:]
    private let scenario: Scenario

    /// The app synthetic widgets belong to when nothing names one.
    static let defaultApp = "com.example.simulated"

    init(scenario: Scenario) throws(HarnessError) {
        self.scenario = scenario
        let appGroups = scenario.appGroupsPath ?? NSTemporaryDirectory() + "widgethost-simulate-\(getpid())"
        var synthetic: [String: [WidgetDescriptor]] = [:]
        for (index, widget) in scenario.widgets.enumerated() {
            let place = "\(scenario.file):\(widget.line): widget[\(index + 1)]"
            switch widget.source {
            case .bundle(let path):
                if bundles[path] == nil {
                    let loaded: FakeTimeExtension
                    do {
                        loaded = try FakeTimeExtension.load(
                            path: path, timeZone: scenario.timeZone, appGroupsPath: appGroups, at: scenario.start,
                            limits: scenario.host.limits)
                    } catch {
                        throw HarnessError("\(place): \(error.description)")
                    }
                    bundles[path] = loaded
                    descriptors.append(loaded.descriptor)
                }
                if let app = widget.app, app != bundles[path]!.descriptor.app {
                    throw HarnessError(
                        "\(place): app = \"\(app)\", but the extension belongs to \(bundles[path]!.descriptor.app) (its bundle id minus the last part); remove app")
                }
            case .provider(let provider):
                let app = try syntheticApp(of: widget, place: place)
                let ext = Self.syntheticExtension(of: app)
                if let existing = providers[ext]?[widget.kind], existing != provider {
                    throw HarnessError(
                        "\(place): kind \(widget.kind) of \(app) already has a different provider; give this widget another kind")
                }
                if providers[ext]?[widget.kind] == nil {
                    // A kind the scenario edits is configurable: an intent with no parameters.
                    let edited = scenario.widgets.contains { $0.kind == widget.kind && $0.interactions.contains { $0.kind == .configure } }
                    synthetic[app, default: []].append(
                        WidgetDescriptor(
                            kind: widget.kind, displayName: widget.kind, description: "synthetic provider",
                            supportedFamilies: WidgetFamily.allCases,
                            intent: edited
                                ? IntentSchema(type: widget.kind + "Configuration", title: widget.kind, parameters: []) : nil))
                }
                providers[ext, default: [:]][widget.kind] = provider
            }
        }
        for (app, widgets) in synthetic.sorted(by: { $0.key < $1.key }) {
            descriptors.append(
                ExtensionDescriptor(id: Self.syntheticExtension(of: app), app: app, displayName: app, widgets: widgets))
        }
    }

    static func syntheticExtension(of app: String) -> String { app + ".simulated" }

    private func syntheticApp(of widget: ScenarioWidget, place: String) throws(HarnessError) -> String {
        if let app = widget.app { return app }
        switch scenario.apps.count {
        case 0: return Self.defaultApp
        case 1: return scenario.apps[0].id
        default:
            throw HarnessError(
                "\(place): a provider widget needs app = \"…\" when the scenario declares several [[app]] (\(scenario.apps.map(\.id).joined(separator: ", ")))")
        }
    }

    /// The app to name when adding the widget, so a kind two apps share resolves.
    func app(of widget: ScenarioWidget) -> String? {
        switch widget.source {
        case .bundle(let path): bundles[path]?.descriptor.app
        case .provider: try? syntheticApp(of: widget, place: "")
        }
    }

    func source(of ext: String, kind: String) -> Source? {
        if let provider = providers[ext]?[kind] { return .provider(provider) }
        return bundles.values.first { $0.descriptor.id == ext }.map { .bundle($0) }
    }

    func sourceName(of widget: ScenarioWidget) -> String {
        switch widget.source {
        case .bundle(let path): (path as NSString).lastPathComponent
        case .provider: "provider"
        }
    }

    /// Every scheduled `reloadTimelines(ofKind:)` names a kind its app defines, and every
    /// widget the scenario edits is configurable.
    func checkSchedules(host: WidgetHost) throws(HarnessError) {
        for (index, widget) in scenario.widgets.enumerated() {
            guard let edit = widget.interactions.first(where: { $0.kind == .configure }) else { continue }
            let descriptor = host.catalog.extensions.flatMap(\.widgets).first { $0.kind == widget.kind }
            if descriptor?.intent == nil {
                throw HarnessError(
                    "\(scenario.file):\(edit.line): widget[\(index + 1)].configure: \(widget.kind) is not configurable "
                        + "(its extension declares no intent for it); remove configure, or use an AppIntentConfiguration kind")
            }
        }
        for app in scenario.apps {
            let kinds = host.catalog.extensions.filter { $0.app == app.id }.flatMap { $0.widgets.map(\.kind) }
            for schedule in app.reloads {
                guard let kind = schedule.kind, !kinds.contains(kind) else { continue }
                let known = kinds.isEmpty ? "no widget of the scenario belongs to \(app.id)" : "its kinds are " + kinds.joined(separator: ", ")
                throw HarnessError("\(scenario.file):\(schedule.line): app \(app.id) reloads kind \(kind), which it does not define; \(known)")
            }
        }
    }
}
