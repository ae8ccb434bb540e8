import Foundation

/// On the wire a notice is one flat object with only the fields that apply, as it has been
/// since the first `subscribe`: `{"type":"reloadDeferred","at":…,"widgetId":…,"until":…}`.
extension HostNotice: Codable {
    public func encode(to encoder: any Encoder) throws {
        try FlatNotice(self).encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        self = try FlatNotice(from: decoder).notice(codingPath: decoder.codingPath)
    }
}

/// The flat form. Its synthesized coding writes exactly the keys it always wrote
/// (`HostNotice+EventLine.swift` writes the same keys itself, in the same sorted order).
struct FlatNotice: Codable {
    var type: HostNotice.NoticeType
    var at: Date
    var widgetId: String?
    var kind: String?
    var `extension`: String?
    var budgeted: Bool?
    /// Why an exempt reload was exempt (`added`, `foreground`, `reboot`, …, or `prepaid`).
    var exemption: String?
    var requestedAt: Date?
    var until: Date?
    var reason: DeferralReason?
    var result: ReloadResultKind?
    var durationMs: Double?
    var footprintBytes: Int?
    /// A failure's sentence; for `entryChanged`, the entry's source.
    var detail: String?
    var entry: TimelineEntryPayload?
    var diagnostic: Diagnostic?
    /// `intentStarted`, `intentFinished`, `controlUpdated`: the control's kind.
    var control: String?
    /// `intentStarted`, `intentFinished`: the intent's title or type; how it ended.
    var intent: String?
    var outcome: IntentOutcome?
    /// `intentStarted`: the tapped button's id, and a Toggle's new state.
    var button: String?
    var isOn: Bool?
    /// `controlUpdated`: the provider's answer.
    var value: ControlValueResult?
    /// For the `activity…` types: the whole activity notice.
    var activity: ActivityNotice?

    private static let prepaid = "prepaid"

    init(_ notice: HostNotice) {
        type = notice.type
        at = notice.at
        widgetId = notice.widgetId
        kind = notice.widget?.kind
        self.extension = notice.extension
        switch notice {
        case .widgetAdded, .widgetRemoved:
            break
        case .reloadStarted(_, _, let charge, let requestedAt):
            budgeted = charge.isBudgeted
            switch charge {
            case .budgeted: break
            case .exempt(let reason): exemption = reason.rawValue
            case .prepaid: exemption = Self.prepaid
            }
            self.requestedAt = requestedAt
        case .reloadCoalesced(_, _, let budgeted, let until, let reason):
            self.budgeted = budgeted
            self.until = until
            self.reason = reason
        case .reloadDeferred(_, _, let budgeted, let requestedAt, let until, let reason):
            self.budgeted = budgeted
            self.requestedAt = requestedAt
            self.until = until
            self.reason = reason
        case .reloadFinished(_, _, let budgeted, let result, let durationMs, let footprintBytes, let detail):
            self.budgeted = budgeted
            self.result = result
            self.durationMs = durationMs
            self.footprintBytes = footprintBytes
            self.detail = detail
        case .entryChanged(_, _, let entry, let source):
            self.entry = entry
            detail = source.rawValue
        case .diagnostic(_, let diagnostic):
            self.diagnostic = diagnostic
        case .snapshotReceived(_, _, let entry):
            self.entry = entry
        case .extensionKilled(_, _, _, let result, let durationMs, let footprintBytes, let detail):
            self.result = result
            self.durationMs = durationMs
            self.footprintBytes = footprintBytes
            self.detail = detail
        case .extensionStopped(_, _, let detail):
            self.detail = detail
        case .intentStarted(_, _, let control, _, let intent, let button, let isOn):
            self.control = control
            self.intent = intent
            self.button = button
            self.isOn = isOn
        case .intentFinished(_, _, let control, _, let intent, let outcome, let durationMs, let detail):
            self.control = control
            self.intent = intent
            self.outcome = outcome
            self.durationMs = durationMs
            self.detail = detail
        case .controlUpdated(_, let control, _, let value, let detail):
            self.control = control
            self.value = value
            self.detail = detail
        case .activity(let notice):
            detail = notice.detail
            until = notice.until
            activity = notice
        }
    }

    /// The notice this object describes; a field its type needs that is missing or wrong is
    /// a decoding error naming the field.
    func notice(codingPath: [any CodingKey]) throws -> HostNotice {
        func required<Value>(_ value: Value?, _ field: String) throws -> Value {
            guard let value else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "\(article) \(type.rawValue) notice needs \"\(field)\""))
            }
            return value
        }
        let article = type.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        func widget() throws -> NoticeWidget {
            NoticeWidget(
                id: try required(widgetId, "widgetId"), kind: try required(kind, "kind"),
                extension: try required(self.extension, "extension"))
        }

        if let event = type.activityEvent {
            var notice = try required(activity, "activity")
            notice.event = event
            notice.at = at
            return .activity(notice)
        }
        switch type {
        case .widgetAdded: return .widgetAdded(try widget(), at: at)
        case .widgetRemoved: return .widgetRemoved(try widget(), at: at)
        case .reloadStarted:
            let charge: ReloadCharge
            switch (try required(budgeted, "budgeted"), exemption) {
            case (true, _): charge = .budgeted
            case (false, Self.prepaid?): charge = .prepaid
            case (false, let name):
                let name = try required(name, "exemption")
                guard let exemption = Exemption(rawValue: name) else {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: codingPath,
                            debugDescription: "\"\(name)\" is not an exemption; one of "
                                + (Exemption.allCases.map(\.rawValue) + [Self.prepaid]).joined(separator: ", ")))
                }
                charge = .exempt(exemption)
            }
            return .reloadStarted(try widget(), at: at, charge: charge, requestedAt: try required(requestedAt, "requestedAt"))
        case .reloadCoalesced:
            return .reloadCoalesced(
                try widget(), at: at, budgeted: try required(budgeted, "budgeted"), until: until,
                reason: try required(reason, "reason"))
        case .reloadDeferred:
            return .reloadDeferred(
                try widget(), at: at, budgeted: try required(budgeted, "budgeted"),
                requestedAt: try required(requestedAt, "requestedAt"), until: until, reason: try required(reason, "reason"))
        case .reloadFinished:
            return .reloadFinished(
                try widget(), at: at, budgeted: try required(budgeted, "budgeted"), result: try required(result, "result"),
                durationMs: try required(durationMs, "durationMs"), footprintBytes: footprintBytes, detail: detail)
        case .entryChanged:
            let name = try required(detail, "detail")
            guard let source = EntrySource(rawValue: name) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: codingPath,
                        debugDescription: "an entryChanged notice's detail is the entry's source, not \"\(name)\""))
            }
            return .entryChanged(try widget(), at: at, entry: entry, source: source)
        case .diagnostic:
            return .diagnostic(try widget(), try required(diagnostic, "diagnostic"))
        case .snapshotReceived:
            return .snapshotReceived(try widget(), at: at, entry: try required(entry, "entry"))
        case .extensionKilled:
            return .extensionKilled(
                extension: try required(self.extension, "extension"), widgetId: widgetId,
                at: at, result: try required(result, "result"), durationMs: try required(durationMs, "durationMs"),
                footprintBytes: footprintBytes, detail: try required(detail, "detail"))
        case .extensionStopped:
            return .extensionStopped(
                extension: try required(self.extension, "extension"), at: at, detail: try required(detail, "detail"))
        case .intentStarted:
            return .intentStarted(
                extension: try required(self.extension, "extension"), widgetId: widgetId, control: control, at: at,
                intent: try required(intent, "intent"), button: button, isOn: isOn)
        case .intentFinished:
            return .intentFinished(
                extension: try required(self.extension, "extension"), widgetId: widgetId, control: control, at: at,
                intent: try required(intent, "intent"), outcome: try required(outcome, "outcome"),
                durationMs: try required(durationMs, "durationMs"), detail: detail)
        case .controlUpdated:
            return .controlUpdated(
                extension: try required(self.extension, "extension"), control: try required(control, "control"), at: at,
                value: value, detail: detail)
        case .activityRequested, .activityUpdated, .activityThrottled, .activityIgnored, .activityStale, .activityEnded,
            .activityDismissed, .activityRefused, .activityRendered:
            preconditionFailure("activity notices are decoded above")
        }
    }
}
