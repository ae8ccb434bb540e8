import Foundation

/// `configureWidget`: the user edits a widget's configuration. The values given replace
/// those of the same names; a null removes one (it takes its default again).
public struct ConfigureWidgetParams: Sendable, Hashable, Codable {
    public var id: String
    public var configuration: IntentValues
    public init(id: String, configuration: IntentValues) {
        self.id = id
        self.configuration = configuration
    }
}

public struct ConfigureWidgetResult: Sendable, Hashable, Codable {
    public var widget: WidgetInfo
    /// The exempt reload the edit caused (origin `userInteraction`).
    public var reload: WidgetReloadOutcome
    public init(widget: WidgetInfo, reload: WidgetReloadOutcome) {
        self.widget = widget
        self.reload = reload
    }
}

/// `options`: the choices for one parameter of a kind's configuration intent.
public struct OptionsParams: Sendable, Hashable, Codable {
    public var kind: String
    public var parameter: String
    public var app: String?
    public init(kind: String, parameter: String, app: String? = nil) {
        self.kind = kind
        self.parameter = parameter
        self.app = app
    }
}

/// `tap`: the user taps a `Button(intent:)` or a `Toggle(isOn:intent:)` in a widget. `button`
/// names it by its `id` in the archive (`b1`, `b2`, … in reading order), its intent's type or
/// title, or its label's text; or `intent` gives the intent itself (for a widget with no view).
public struct TapParams: Sendable, Hashable, Codable {
    public var id: String
    public var button: String?
    public var intent: IntentInvocation?
    public init(id: String, button: String? = nil, intent: IntentInvocation? = nil) {
        self.id = id
        self.button = button
        self.intent = intent
    }
}

/// An intent a tap started in a widget (`status`), from the tap until the intent fails or the
/// reload it asked for lands: what the widget shows meanwhile — the tapped Toggle in its new
/// state, `invalidatableContent` dimmed.
public struct IntentInteraction: Sendable, Hashable, Codable {
    /// The intent's title or type.
    public var intent: String
    /// The tapped button's id in the archive (`b1`, …); nil for a tap by intent.
    public var button: String?
    public var startedAt: Date
    /// A Toggle's new state, shown until the reload lands (rolled back if the intent fails).
    public var toggledTo: Bool?
    /// When the intent succeeded; nil while it runs. The widget is then waiting for its reload.
    public var endedAt: Date?

    public init(intent: String, button: String?, startedAt: Date, toggledTo: Bool?, endedAt: Date? = nil) {
        self.intent = intent
        self.button = button
        self.startedAt = startedAt
        self.toggledTo = toggledTo
        self.endedAt = endedAt
    }
}

/// `tapControl`: the user taps a Control widget.
public struct TapControlParams: Sendable, Hashable, Codable {
    public var kind: String
    public var app: String?
    public init(kind: String, app: String? = nil) {
        self.kind = kind
        self.app = app
    }
}

/// How a performed intent ended.
public enum IntentOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    case succeeded
    /// `perform()` threw.
    case failed
    case timedOut
    case memoryLimitExceeded
    case crashed
    case protocolError
}

/// The answer to `tap` and `tapControl`, once the intent has run.
public struct TapResult: Sendable, Hashable, Codable {
    public var intent: IntentInvocation
    public var outcome: IntentOutcome
    public var durationMs: Double
    /// Why it failed.
    public var detail: String?
    /// The tapped widget's immediate exempt reload (origin `appIntent`), after a success.
    public var reload: WidgetReloadOutcome?
    /// A toggle's state now: the new one after a success, the old one after a rollback.
    public var isOn: Bool?
    public init(
        intent: IntentInvocation, outcome: IntentOutcome, durationMs: Double, detail: String? = nil,
        reload: WidgetReloadOutcome? = nil, isOn: Bool? = nil
    ) {
        self.intent = intent
        self.outcome = outcome
        self.durationMs = durationMs
        self.detail = detail
        self.reload = reload
        self.isOn = isOn
    }
}

/// `controls` and `reloadControls`: which controls, optionally only one kind or one app's.
public struct ControlsParams: Sendable, Hashable, Codable {
    public var kind: String?
    public var app: String?
    public init(kind: String? = nil, app: String? = nil) {
        self.kind = kind
        self.app = app
    }
}

/// One Control widget as the host knows it.
public struct ControlStatus: Sendable, Hashable, Codable {
    public var kind: String
    public var app: String
    public var `extension`: String
    public var displayName: String
    public var style: ControlDescriptor.Style
    /// The provider's last answer; absent until it has been asked.
    public var value: ControlValueResult?
    public var updatedAt: Date?
    /// A value request is out.
    public var asking: Bool
    /// Why the last value request failed.
    public var lastError: String?

    public init(
        kind: String, app: String, extension: String, displayName: String, style: ControlDescriptor.Style,
        value: ControlValueResult? = nil, updatedAt: Date? = nil, asking: Bool = false, lastError: String? = nil
    ) {
        self.kind = kind
        self.app = app
        self.extension = `extension`
        self.displayName = displayName
        self.style = style
        self.value = value
        self.updatedAt = updatedAt
        self.asking = asking
        self.lastError = lastError
    }
}

public struct ReloadControlsResult: Sendable, Hashable, Codable {
    /// The kinds whose value providers were asked.
    public var asked: [String]
    public init(asked: [String]) { self.asked = asked }
}

/// `device`: the settings of the simulated device that reach every extension. Changing
/// either gives every widget one exempt reload (Apple).
public struct DeviceParams: Sendable, Hashable, Codable {
    /// `fr_FR`, `en_US`, …
    public var locale: String?
    /// SwiftUI's `DynamicTypeSize`: `xSmall`, `small`, `medium`, `large`, `xLarge`, `xxLarge`,
    /// `xxxLarge`, `accessibility1` … `accessibility5`.
    public var dynamicTypeSize: String?
    public init(locale: String? = nil, dynamicTypeSize: String? = nil) {
        self.locale = locale
        self.dynamicTypeSize = dynamicTypeSize
    }
}

public struct DeviceResult: Sendable, Hashable, Codable {
    public var locale: String?
    public var dynamicTypeSize: String?
    /// The exempt reloads the change caused; empty when nothing changed.
    public var reloads: [WidgetReloadOutcome]
    public init(locale: String?, dynamicTypeSize: String?, reloads: [WidgetReloadOutcome]) {
        self.locale = locale
        self.dynamicTypeSize = dynamicTypeSize
        self.reloads = reloads
    }
}

/// SwiftUI's `DynamicTypeSize` names, smallest first.
public enum DynamicTypeSizeName {
    public static let all = [
        "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge",
        "accessibility1", "accessibility2", "accessibility3", "accessibility4", "accessibility5",
    ]
}
