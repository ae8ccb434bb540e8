import CoreMetrics
import Foundation
import Prometheus
import WidgetHostProtocol

/// The host's figures for `/metrics`, in Prometheus's text format: counters and histograms
/// fed by the notices as they happen, gauges set from the host's state at each scrape.
/// Made through swift-metrics' API with swift-prometheus as the factory (not bootstrapped
/// globally: each daemon, and each test, has its own registry). docs/operations.md lists
/// every metric. Used on the host's event loop only.
final class HostMetrics: @unchecked Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private var counters: [String: CoreMetrics.Counter] = [:]
    private var timers: [String: CoreMetrics.Timer] = [:]
    private var gauges: [String: CoreMetrics.Gauge] = [:]
    /// How each widget's running reload was charged, from `reloadStarted` to `reloadFinished`.
    private var charges: [String: ReloadCharge] = [:]
    /// Gauges per widget, kept so that a removed widget's series disappear.
    private var widgetGauges: [String: [CoreMetrics.Gauge]] = [:]

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        let latency: [Duration] = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        factory.durationHistogramBuckets = [
            "widgethost_extension_request_duration_seconds": latency,
            "widgethost_control_request_duration_seconds": latency,
        ]
        self.factory = factory
        // Present from the start, so that a scrape before anything happened reads 0.
        counter("widgethost_entry_changes_total").increment(by: 0)
    }

    // MARK: - Notices

    func observe(_ notice: HostNotice) {
        switch notice {
        case .reloadStarted(let widget, _, let charge, _):
            charges[widget.id] = charge
        case .reloadFinished(let widget, _, _, let result, let durationMs, let footprint, _):
            let charge = charges.removeValue(forKey: widget.id) ?? .budgeted
            counter(
                "widgethost_reloads_total",
                ["outcome": result.rawValue, "charge": Self.chargeName(charge), "reason": Self.reason(charge)]
            ).increment()
            timer("widgethost_extension_request_duration_seconds", ["extension": widget.extension])
                .recordNanoseconds(Int64(durationMs * 1_000_000))
            if let footprint {
                gauge("widgethost_extension_footprint_bytes", ["extension": widget.extension]).record(footprint)
            }
        case .reloadDeferred(_, _, let budgeted, _, _, let reason):
            counter("widgethost_reload_deferrals_total", ["reason": reason.rawValue, "budgeted": budgeted ? "true" : "false"])
                .increment()
        case .reloadCoalesced:
            counter("widgethost_reloads_coalesced_total").increment()
        case .extensionKilled(let ext, _, _, let result, _, let footprint, _):
            counter("widgethost_extension_kills_total", ["cause": result.rawValue, "extension": ext]).increment()
            if let footprint {
                gauge("widgethost_extension_footprint_bytes", ["extension": ext]).record(footprint)
            }
        case .entryChanged:
            counter("widgethost_entry_changes_total").increment()
        case .widgetRemoved(let widget, _):
            charges[widget.id] = nil
            for gauge in widgetGauges.removeValue(forKey: widget.id) ?? [] { gauge.destroy() }
            gauges = gauges.filter { !$0.key.contains("\u{1}widget=\(widget.id)\u{1}") }
        default:
            // Notices without a figure here (added, diagnostics, snapshots, idle stops, Live
            // Activities, intents, controls): a new kind of notice never breaks /metrics.
            break
        }
    }

    func recordControlRequest(method: String, seconds: Double) {
        timer("widgethost_control_request_duration_seconds", ["method": method])
            .recordNanoseconds(Int64(seconds * 1_000_000_000))
    }

    // MARK: - Scrape

    /// The text format, after setting the gauges from `snapshot`.
    func exposition(_ snapshot: DashboardSnapshot) -> String {
        gauge("widgethost_widgets").record(snapshot.widgets.count)
        gauge("widgethost_extensions").record(snapshot.catalog.loaded.count)
        gauge("widgethost_extensions_skipped").record(snapshot.catalog.skipped.count)
        for status in snapshot.widgets {
            let labels = ["widget": status.widget.id, "kind": status.widget.kind]
            let used = gauge("widgethost_budget_used", labels, widget: status.widget.id)
            used.record(status.budget.used)
            gauge("widgethost_budget_limit", labels, widget: status.widget.id).record(status.budget.limit)
            gauge("widgethost_widget_stale_seconds", labels, widget: status.widget.id).record(status.staleSeconds)
        }
        return registry.emitToString()
    }

    // MARK: - Made once per label set

    private static func key(_ name: String, _ labels: [String: String]) -> String {
        ([name] + labels.keys.sorted().map { "\u{1}\($0)=\(labels[$0] ?? "")\u{1}" }).joined()
    }

    private static func dimensions(_ labels: [String: String]) -> [(String, String)] {
        labels.keys.sorted().map { ($0, labels[$0] ?? "") }
    }

    private func counter(_ name: String, _ labels: [String: String] = [:]) -> CoreMetrics.Counter {
        let key = Self.key(name, labels)
        if let existing = counters[key] { return existing }
        let made = CoreMetrics.Counter(label: name, dimensions: Self.dimensions(labels), factory: factory)
        counters[key] = made
        return made
    }

    private func timer(_ name: String, _ labels: [String: String]) -> CoreMetrics.Timer {
        let key = Self.key(name, labels)
        if let existing = timers[key] { return existing }
        let made = CoreMetrics.Timer(label: name, dimensions: Self.dimensions(labels), factory: factory)
        timers[key] = made
        return made
    }

    private func gauge(_ name: String, _ labels: [String: String] = [:], widget: String? = nil) -> CoreMetrics.Gauge {
        let key = Self.key(name, labels)
        if let existing = gauges[key] { return existing }
        let made = CoreMetrics.Gauge(label: name, dimensions: Self.dimensions(labels), factory: factory)
        gauges[key] = made
        if let widget { widgetGauges[widget, default: []].append(made) }
        return made
    }

    static func chargeName(_ charge: ReloadCharge) -> String {
        switch charge {
        case .budgeted: "budgeted"
        case .exempt: "exempt"
        case .prepaid: "prepaid"
        }
    }

    /// Why an exempt reload was exempt; `budget` for a budgeted one.
    static func reason(_ charge: ReloadCharge) -> String {
        switch charge {
        case .budgeted: "budget"
        case .exempt(let exemption): exemption.rawValue
        case .prepaid: "prepaid"
        }
    }
}
