import Foundation

/// `intent/perform`: run an intent's `perform()` (a tap on a `Button(intent:)`, a Toggle, a control).
public struct IntentPerformParams: Sendable, Hashable, Codable {
    public var intent: IntentInvocation
    /// The kind of the widget or control it came from.
    public var kind: String
    /// The widget tapped; absent for a control.
    public var widgetId: String?
    public var now: Date
    public var environment: ViewEnvironment?
    /// A toggle's new state: the SDK sets a `SetValueIntent`'s `value` to it.
    public var isOn: Bool?

    public init(
        intent: IntentInvocation, kind: String, widgetId: String?, now: Date, environment: ViewEnvironment? = nil,
        isOn: Bool? = nil
    ) {
        self.intent = intent
        self.kind = kind
        self.widgetId = widgetId
        self.now = now
        self.environment = environment
        self.isOn = isOn
    }
}

/// What `perform()` did. A `perform()` that throws is `error` (a failed intent, not a broken
/// extension: the process lives on). The `WidgetCenter` and `ControlCenter` calls the intent
/// made while it ran are listed, and the host honours them as the intent's reloads.
public struct IntentPerformResult: Sendable, Hashable, Codable {
    /// Set when `perform()` threw: the error's description.
    public var error: String?
    /// `WidgetCenter.shared.reloadTimelines(ofKind:)` calls.
    public var reloadKinds: [String]?
    /// `WidgetCenter.shared.reloadAllTimelines()` was called.
    public var reloadAll: Bool?
    /// `ControlCenter.shared.reloadControls(ofKind:)` calls.
    public var reloadControlKinds: [String]?
    /// `ControlCenter.shared.reloadAllControls()` was called.
    public var reloadAllControls: Bool?

    public init(
        error: String? = nil, reloadKinds: [String]? = nil, reloadAll: Bool? = nil,
        reloadControlKinds: [String]? = nil, reloadAllControls: Bool? = nil
    ) {
        self.error = error
        self.reloadKinds = reloadKinds
        self.reloadAll = reloadAll
        self.reloadControlKinds = reloadControlKinds
        self.reloadAllControls = reloadAllControls
    }
}

/// `intent/options`: the choices of one parameter of a kind's configuration intent (an entity
/// query's `suggestedEntities()`, or an enum's cases).
public struct IntentOptionsParams: Sendable, Hashable, Codable {
    public var kind: String
    public var parameter: String
    public init(kind: String, parameter: String) {
        self.kind = kind
        self.parameter = parameter
    }
}

public struct IntentOptionsResult: Sendable, Hashable, Codable {
    public var options: [IntentOption]
    /// The query's `defaultResult()`, if it has one.
    public var defaultId: String?
    public init(options: [IntentOption], defaultId: String? = nil) {
        self.options = options
        self.defaultId = defaultId
    }
}

/// A Control widget, as `initialize` declares it.
public struct ControlDescriptor: Sendable, Hashable, Codable {
    public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
        /// `ControlWidgetButton`: runs its action.
        case button
        /// `ControlWidgetToggle`: shows on/off, its action gets the new value.
        case toggle
    }

    public var kind: String
    public var displayName: String
    public var description: String
    public var style: Style
    /// The action's intent as the control was built with its preview value.
    public var action: IntentInvocation?
    /// The configuration intent of an `AppIntentControlConfiguration`.
    public var intent: IntentSchema?

    public init(
        kind: String, displayName: String, description: String, style: Style, action: IntentInvocation? = nil,
        intent: IntentSchema? = nil
    ) {
        self.kind = kind
        self.displayName = displayName
        self.description = description
        self.style = style
        self.action = action
        self.intent = intent
    }
}

/// `control/value`: the control's current state, from its `ControlValueProvider`.
public struct ControlValueParams: Sendable, Hashable, Codable {
    public var kind: String
    public var now: Date
    public init(kind: String, now: Date) {
        self.kind = kind
        self.now = now
    }
}

/// A control as it is now: the value its provider gave (a Toggle's `isOn`), what it shows,
/// and the action a tap runs. A provider that threw answers only `error`: a failed value, not
/// a broken extension (the process lives on and the control keeps its last value).
public struct ControlValueResult: Sendable, Hashable, Codable {
    /// A toggle's state; absent for a button.
    public var isOn: Bool?
    /// The provider's value as JSON, if it is not a Bool.
    public var value: JSONValue?
    /// The label's title and symbol, as the control's content closure built it.
    public var title: String?
    public var systemImage: String?
    /// The intent a tap runs, with the parameter values the closure gave it.
    public var action: IntentInvocation?
    /// Set when `currentValue()` threw: why.
    public var error: String?

    public init(
        isOn: Bool? = nil, value: JSONValue? = nil, title: String? = nil, systemImage: String? = nil,
        action: IntentInvocation? = nil, error: String? = nil
    ) {
        self.isOn = isOn
        self.value = value
        self.title = title
        self.systemImage = systemImage
        self.action = action
        self.error = error
    }
}
