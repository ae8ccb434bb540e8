@_exported import SDKFoundation
import Foundation

/// An action the system runs for a widget: a tap on a `Button(intent:)` or a Toggle, a
/// Control widget's action, or a configurable widget's configuration. The host asks the
/// extension to run `perform()` (`intent/perform`) within `limits.intent_timeout`.
public protocol AppIntent: Sendable, SendableMetatype {
    associatedtype PerformResult: IntentResult
    associatedtype SummaryContent: ParameterSummary
    static var title: LocalizedStringResource { get }
    static var description: IntentDescription? { get }
    @ParameterSummaryBuilder<Self> static var parameterSummary: SummaryContent { get }
    static var openAppWhenRun: Bool { get }
    static var isDiscoverable: Bool { get }
    init()
    func perform() async throws -> PerformResult
}

extension AppIntent {
    public static var description: IntentDescription? { nil }
    public static var openAppWhenRun: Bool { false }
    public static var isDiscoverable: Bool { true }
    public static var parameterSummary: Summary<Self> { Summary() }
    /// `@Parameter` inside an intent.
    public typealias Parameter<Value: _IntentValue> = IntentParameter<Value>
}

/// The intent of an `AppIntentConfiguration`: its parameters are what the user configures.
public protocol WidgetConfigurationIntent: AppIntent {}

extension WidgetConfigurationIntent {
    public func perform() async throws -> some IntentResult { .result() }
}

/// An intent that sets a value: a Toggle's or a `ControlWidgetToggle`'s action gets the
/// new state in `value` before `perform()`.
public protocol SetValueIntent: AppIntent {
    associatedtype ValueType: _IntentValue
    var value: ValueType { get set }
}

/// What `perform()` returns: `.result()`, `.result(value:)`, `.result(dialog:)`.
public protocol IntentResult: Sendable {}

public protocol ReturnsValue<Value>: IntentResult {
    associatedtype Value
}

public protocol ProvidesDialog: IntentResult {}

/// The one result type; what it carries is not shown on Linux.
public struct IntentResultContainer<Value: Sendable>: IntentResult, ReturnsValue, ProvidesDialog {
    public let value: Value?
    public let dialog: IntentDialog?
}

extension IntentResult where Self == IntentResultContainer<Never> {
    public static func result() -> Self { IntentResultContainer(value: nil, dialog: nil) }
    public static func result(dialog: IntentDialog) -> Self { IntentResultContainer(value: nil, dialog: dialog) }
}

extension IntentResult {
    public static func result<V: Sendable>(value: V) -> IntentResultContainer<V> where Self == IntentResultContainer<V> {
        IntentResultContainer(value: value, dialog: nil)
    }
    public static func result<V: Sendable>(value: V, dialog: IntentDialog) -> IntentResultContainer<V>
    where Self == IntentResultContainer<V> {
        IntentResultContainer(value: value, dialog: dialog)
    }
}

public struct IntentDialog: Sendable, ExpressibleByStringInterpolation {
    public let text: LocalizedStringResource
    public init(_ text: LocalizedStringResource) { self.text = text }
    public init(stringLiteral value: String) { text = LocalizedStringResource(value) }
    public init(stringInterpolation: DefaultStringInterpolation) {
        text = LocalizedStringResource(String(stringInterpolation: stringInterpolation))
    }
}

/// `static var description = IntentDescription("Choose which project to display")`.
public struct IntentDescription: Sendable, ExpressibleByStringInterpolation {
    public let descriptionText: LocalizedStringResource
    public let categoryName: LocalizedStringResource?
    public let searchKeywords: [LocalizedStringResource]

    public init(
        _ descriptionText: LocalizedStringResource, categoryName: LocalizedStringResource? = nil,
        searchKeywords: [LocalizedStringResource] = []
    ) {
        self.descriptionText = descriptionText
        self.categoryName = categoryName
        self.searchKeywords = searchKeywords
    }

    public init(stringLiteral value: String) { self.init(LocalizedStringResource(value)) }
    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(LocalizedStringResource(String(stringInterpolation: stringInterpolation)))
    }
}

// MARK: - Parameter summaries (accepted; the host shows none)

public protocol ParameterSummary: Sendable {}

/// `Summary("Show \(\.$project)")`: accepted and ignored, as it has no meaning here.
public struct Summary<Intent>: ParameterSummary, @unchecked Sendable {
    public let text: String

    public init() { text = "" }
    public init(_ summary: ParameterSummaryString<Intent>) { text = summary.text }
    public init(_ summary: ParameterSummaryString<Intent>, @ParameterSummaryBuilder<Intent> table: () -> some ParameterSummary) {
        text = summary.text
    }
}

public struct ParameterSummaryString<Intent>: ExpressibleByStringInterpolation {
    public let text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation<Value>(_ keyPath: KeyPath<Intent, IntentParameter<Value>>) {
            text += "\(keyPath)"
        }
    }
}

@resultBuilder
public enum ParameterSummaryBuilder<Intent> {
    /// `Summary("Show \(\.$project)")`: the intent type comes from the builder (the requirement's
    /// `@ParameterSummaryBuilder<Self>`), so the key path needs no root type.
    public static func buildExpression(_ summary: Summary<Intent>) -> Summary<Intent> { summary }
    public static func buildExpression<S: ParameterSummary>(_ summary: S) -> S { summary }
    public static func buildBlock<S: ParameterSummary>(_ summary: S) -> S { summary }
    public static func buildBlock() -> Summary<Intent> { Summary() }
}
