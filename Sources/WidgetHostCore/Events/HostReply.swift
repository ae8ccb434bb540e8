import WidgetHostProtocol

/// The answer to a command event; the daemon sends it back on the control socket.
public enum HostReply: Sendable, Hashable {
    case reload(ReloadResult)
    case widgetAdded(AddWidgetResult)
    case widgetRemoved(WidgetInfo)
    case viewRecorded(BudgetStatus)
    case snapshotRequested(RequestID)
    case refused(HostError)
    /// The answer needs an extension: it comes later as an `.answer(id, reply)` effect.
    case answerLater(RequestID)
    case configured(ConfigureWidgetResult)
    case options(IntentOptionsResult)
    case tapped(TapResult)
    case controlsReloaded(ReloadControlsResult)
    case device(DeviceResult)
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
    case invalidConfiguration(kind: String, ConfigurationError)
    case notConfigurable(kind: String)
    case unknownParameter(kind: String, parameter: String, accepted: [String])
    case unknownButton(WidgetID, button: String, known: [String])
    case unknownControl(kind: String, known: [String])
    case ambiguousControl(kind: String, apps: [String])
    case controlHasNoAction(kind: String)
    case intentRunning(WidgetID)
    case invalidDevice(String)

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
        case .invalidConfiguration(let kind, let error):
            return "\(kind): \(error)"
        case .notConfigurable(let kind):
            return "\(kind) is not configurable (it has a StaticConfiguration); leave the configuration out"
        case .unknownParameter(let kind, let parameter, let accepted):
            let list = accepted.isEmpty ? "it has no parameters" : "its parameters are " + accepted.joined(separator: ", ")
            return "\(kind)'s configuration has no parameter \"\(parameter)\"; \(list)"
        case .unknownButton(let id, let button, let known):
            let list =
                known.isEmpty
                ? "what \(id) shows now has no Button(intent:) or Toggle(isOn:intent:)"
                : "its buttons are " + known.joined(separator: ", ")
            return "\(id) has no button \"\(button)\"; \(list)"
        case .unknownControl(let kind, let known):
            let list = known.isEmpty ? "no extension offers a control" : "known controls are " + known.joined(separator: ", ")
            return "unknown control kind \"\(kind)\"; \(list)"
        case .ambiguousControl(let kind, let apps):
            return "control kind \"\(kind)\" is defined by several apps (\(apps.joined(separator: ", "))); name one with app"
        case .controlHasNoAction(let kind):
            return "control \(kind) has no action yet (its value provider has not answered); try `widgethost controls` first"
        case .intentRunning(let id):
            return "an intent of \(id) is still running; tap again when it has finished"
        case .invalidDevice(let sentence):
            return sentence
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
