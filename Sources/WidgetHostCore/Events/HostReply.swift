import WidgetHostProtocol

/// The answer to a command event; the daemon sends it back on the control socket.
public enum HostReply: Sendable, Hashable {
    case reload(ReloadResult)
    case widgetAdded(AddWidgetResult)
    case widgetRemoved(WidgetInfo)
    case viewRecorded(BudgetStatus)
    case snapshotRequested(RequestID)
    case refused(HostError)
    /// The answer to an `activity` event.
    case activity(ActivityReply)
}

/// A command the host refuses, with a sentence that says what to do instead.
public enum HostError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownKind(kind: String, known: [String])
    case kindNotInApp(kind: String, app: String)
    case ambiguousKind(kind: String, apps: [String])
    case unknownWidget(WidgetID)
    case unsupportedFamily(kind: String, family: WidgetFamily, supported: [WidgetFamily])
    case invalidBudget(Int)

    public var description: String {
        switch self {
        case .unknownKind(let kind, let known):
            let list = known.isEmpty ? "no extension is loaded" : "known kinds are " + known.joined(separator: ", ")
            return "unknown widget kind \"\(kind)\"; \(list)"
        case .kindNotInApp(let kind, let app):
            return "app \(app) defines no widget kind \"\(kind)\"; check the app id or leave it out"
        case .ambiguousKind(let kind, let apps):
            return "widget kind \"\(kind)\" is defined by several apps (\(apps.joined(separator: ", "))); name one with app"
        case .unknownWidget(let id):
            return "no widget with id \"\(id)\"; `widgethost list` shows the ids"
        case .unsupportedFamily(let kind, let family, let supported):
            return "\(kind) does not support \(family); it supports "
                + supported.map(\.rawValue).joined(separator: ", ")
        case .invalidBudget(let value):
            return "a pinned budget must be at least 1, not \(value)"
        }
    }
}

/// The result of one step of the core: the reply to a command (if the event was one)
/// and the effects for the shell to execute, in order.
public struct HostStep: Sendable, Hashable {
    public var reply: HostReply?
    public var effects: [HostEffect]

    public init(reply: HostReply? = nil, effects: [HostEffect] = []) {
        self.reply = reply
        self.effects = effects
    }

    public var notices: [HostNotice] {
        effects.compactMap { if case .notice(let notice) = $0 { notice } else { nil } }
    }

    public var requests: [ExtensionRequest] {
        effects.compactMap { if case .send(let request) = $0 { request } else { nil } }
    }
}
