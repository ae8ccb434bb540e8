import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// 2026-02-15T00:00:00Z, the day the scenarios of DESIGN.md start.
let t0 = Date(timeIntervalSince1970: 1_771_113_600)

let birthdayExtension = ExtensionDescriptor(
    id: "com.birthdayreminders.widget",
    widgets: [
        WidgetDescriptor(
            kind: "BirthdayHomeWidget", displayName: "Birthdays", description: "Upcoming birthdays",
            supportedFamilies: [.systemSmall, .systemMedium, .systemLarge]),
        WidgetDescriptor(
            kind: "BirthdayLockScreenWidget", displayName: "Birthdays", description: "Next birthday",
            supportedFamilies: [.accessoryCircular, .accessoryRectangular, .accessoryInline]),
    ])

let weatherExtension = ExtensionDescriptor(
    id: "com.example.weather.widget",
    widgets: [
        WidgetDescriptor(
            kind: "WeatherWidget", displayName: "Weather", description: "Forecast",
            supportedFamilies: [.systemSmall])
    ])

/// What a synthetic extension answers to `timeline/get`.
enum ProviderBehaviour {
    case timeline(TimelinePayload)
    case fail(ExtensionFailure)
    /// Do not answer: the test replies by hand (or lets it time out).
    case hold
}

/// Drives a `WidgetHost` the way a shell would, with explicit instants and a synthetic
/// extension that answers instantly.
struct TestHost {
    var host: WidgetHost
    var now: Date
    var notices: [HostNotice] = []
    var effects: [HostEffect] = []
    /// Requests sent and not answered (the provider held them).
    var held: [ExtensionRequest] = []
    var provider: (TimelineParams) -> ProviderBehaviour
    /// What the synthetic extension answers to `intent/perform`, `intent/options` and
    /// `control/value`; nil: it holds them (the test answers by hand).
    var intents: (ExtensionRequest.Call) -> ExtensionReply? = { _ in nil }
    /// Hold `placeholder/get` and `snapshot/get` too (the test answers them by hand).
    var holdEntries = false
    /// Every `.answer` effect, by the request id the client waits on.
    var answers: [RequestID: HostReply] {
        Dictionary(
            effects.compactMap { if case .answer(let id, let reply) = $0 { (id, reply) } else { nil } },
            uniquingKeysWith: { first, _ in first })
    }

    init(
        configuration: HostConfiguration = .default, at start: Date = t0,
        extensions: [ExtensionDescriptor] = [birthdayExtension, weatherExtension],
        provider: @escaping (TimelineParams) -> ProviderBehaviour = { params in
            .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .never))
        }
    ) {
        host = WidgetHost(configuration: configuration)
        now = start
        self.provider = provider
        handle(.hostStarted(bootID: "boot-1"))
        handle(.catalogChanged(extensions))
    }

    @discardableResult
    mutating func handle(_ event: HostEvent) -> HostStep {
        let step = host.handle(event, at: now)
        absorb(step)
        return step
    }

    private mutating func absorb(_ step: HostStep) {
        effects += step.effects
        notices += step.notices
        for request in step.requests { answer(request) }
    }

    private mutating func answer(_ request: ExtensionRequest) {
        if holdEntries, request.call.method == .placeholder || request.call.method == .snapshot {
            held.append(request)
            return
        }
        switch request.call {
        case .placeholder(let params):
            absorb(
                host.handle(
                    .extensionReplied(
                        request.id, .entry(TimelineEntryPayload(date: now, content: ["placeholder": .string(params.kind)])),
                        footprintBytes: nil), at: now))
        case .snapshot:
            absorb(host.handle(.extensionReplied(request.id, .entry(entry(at: now)), footprintBytes: nil), at: now))
        case .timeline(let params):
            switch provider(params) {
            case .timeline(let payload):
                absorb(
                    host.handle(
                        .extensionReplied(request.id, .timeline(payload, byteCount: 200), footprintBytes: 1_000_000),
                        at: now))
            case .fail(let failure):
                absorb(host.handle(.extensionFailed(request.id, failure), at: now))
            case .hold:
                held.append(request)
            }
        case .perform, .options, .controlValue, .activityRender:
            if let reply = intents(request.call) {
                absorb(host.handle(.extensionReplied(request.id, reply, footprintBytes: nil), at: now))
            } else {
                held.append(request)
            }
        }
    }

    /// Moves the clock to `time`, handling every deadline on the way at its own instant.
    mutating func advance(to time: Date) {
        while let deadline = host.nextDeadline, deadline <= time {
            now = max(now, deadline)
            handle(.deadlineReached)
        }
        now = time
    }

    mutating func advance(by interval: TimeInterval) { advance(to: now + interval) }

    @discardableResult
    mutating func add(_ kind: String = "BirthdayHomeWidget", _ family: WidgetFamily = .systemSmall, pinned: Int? = nil)
        -> WidgetID
    {
        let step = handle(.widgetAdded(AddWidgetRequest(kind: kind, family: family, pinnedBudget: pinned)))
        guard case .widgetAdded(let result)? = step.reply else { fatalError("add failed: \(String(describing: step.reply))") }
        return WidgetID(result.widget.id)
    }

    /// Asks for a reload of `kind` and returns the single outcome.
    mutating func reload(_ kind: String = "BirthdayHomeWidget", origin: ReloadOrigin = .background)
        -> WidgetReloadOutcome
    {
        let step = handle(.reloadRequested(ReloadRequest(.kind(kind, app: nil), origin: origin)))
        guard case .reload(let result)? = step.reply, let outcome = result.outcomes.first else {
            fatalError("reload failed: \(String(describing: step.reply))")
        }
        return outcome
    }

    func status(_ id: WidgetID) -> WidgetStatus {
        try! host.status(of: id, at: now).get()[0]
    }

    /// A `reloadStarted` notice's fields.
    struct Start {
        var at: Date
        var charge: ReloadCharge
        var requestedAt: Date
        var budgeted: Bool { charge.isBudgeted }
    }

    func started(_ id: WidgetID, budgeted: Bool? = nil) -> [Start] {
        notices.compactMap { notice in
            guard case .reloadStarted(let widget, let at, let charge, let requestedAt) = notice,
                widget.id == id.rawValue, budgeted == nil || charge.isBudgeted == budgeted
            else { return nil }
            return Start(at: at, charge: charge, requestedAt: requestedAt)
        }
    }

    func notices(_ type: HostNotice.NoticeType, _ id: WidgetID) -> [HostNotice] {
        notices.filter { $0.type == type && $0.widgetId == id.rawValue }
    }
}

func entry(at date: Date, _ text: String = "entry") -> TimelineEntryPayload {
    TimelineEntryPayload(date: date, content: ["text": .string(text)])
}

func config(_ change: (inout HostConfiguration) -> Void) -> HostConfiguration {
    var configuration = HostConfiguration()
    change(&configuration)
    return configuration
}

extension Date {
    /// `t0.at("11:50")` — a time of day on t0's day (UTC).
    func at(_ time: String, dayOffset: Int = 0) -> Date {
        let parts = time.split(separator: ":").compactMap { Double($0) }
        return self + Double(dayOffset) * 86_400 + parts[0] * 3600 + parts[1] * 60
    }
}
