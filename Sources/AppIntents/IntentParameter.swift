import Foundation
import WidgetHostProtocol

/// `@Parameter(title:default:)`. A class, as Apple's is: the host sets an intent's values
/// through it before `perform()` (or the provider's `timeline(for:in:)`).
@propertyWrapper
public final class IntentParameter<Value: _IntentValue>: @unchecked Sendable {
    public let title: LocalizedStringResource
    public let description: LocalizedStringResource?
    let defaultValue: Value?
    private let lock = NSLock()
    private var stored: Value?

    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil) {
        self.title = title
        self.description = description
        self.defaultValue = nil
    }

    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value) {
        self.title = title
        self.description = description
        self.defaultValue = defaultValue
    }

    public init(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value.Wrapped?
    ) where Value: _OptionalIntentValue {
        self.title = title
        self.description = description
        self.defaultValue = defaultValue.map(Value.wrap)
    }

    public var wrappedValue: Value {
        get {
            lock.withLock {
                guard let value = stored ?? defaultValue ?? Value._missing else {
                    fatalError("the parameter \(title) has no value and no default; give it one with @Parameter(default:)")
                }
                return value
            }
        }
        set { lock.withLock { stored = newValue } }
    }

    public var projectedValue: IntentParameter<Value> { self }
}

/// The erased face of a parameter, for reading a schema and setting values by name.
public protocol _AnyIntentParameter: AnyObject, Sendable {
    func _schema(name: String) -> IntentParameterSchema
    func _currentValue() -> JSONValue?
    func _set(_ value: JSONValue?) async throws
    func _options() async throws -> IntentOptionsResult
}

extension IntentParameter: _AnyIntentParameter {
    public func _schema(name: String) -> IntentParameterSchema {
        IntentParameterSchema(
            name: name, title: title.defaultValue, type: Value._intentValueType, optional: Value._missing != nil,
            default: defaultValue.map { $0._jsonValue }.flatMap { $0 == .null ? nil : $0 },
            options: Value._options, query: Value._intentValueType == .entity && Value._options == nil ? true : nil)
    }

    public func _currentValue() -> JSONValue? {
        lock.withLock { (stored ?? defaultValue)?._jsonValue }
    }

    public func _set(_ value: JSONValue?) async throws {
        guard let value, value != .null else {
            lock.withLock { stored = nil }
            return
        }
        let decoded: Value
        do {
            decoded = try await Value._decode(value)
        } catch let error as IntentValueError where error.isMissingEntity && Value._missing != nil {
            // An optional entity whose id the query no longer returns (deleted since the user
            // picked it) reads as no value, as on a device; the provider shows its "pick one" state.
            lock.withLock { stored = nil }
            return
        }
        lock.withLock { stored = decoded }
    }
}

/// A type a parameter can have: String, Int, Double, Bool, Date, an `AppEnum`, an
/// `AppEntity`, or an optional of one.
public protocol _IntentValue: Sendable {
    static var _intentValueType: IntentValueType { get }
    /// The choices, for an enum (its cases).
    static var _options: [IntentOption]? { get }
    /// What an unset parameter reads as: nil for an optional, none (a missing value) otherwise.
    static var _missing: Self? { get }
    var _jsonValue: JSONValue { get }
    static func _decode(_ value: JSONValue) async throws -> Self
    /// The choices a query gives (an `AppEntity`'s `suggestedEntities()` and `defaultResult()`);
    /// nil for a type without a query. A requirement, so that it dispatches on the real type.
    static func _queryOptions() async throws -> IntentOptionsResult?
}

extension _IntentValue {
    public static var _options: [IntentOption]? { nil }
    public static var _missing: Self? { nil }
    public static func _queryOptions() async throws -> IntentOptionsResult? { nil }
}

/// A value the host sent that does not fit the parameter.
public struct IntentValueError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// An entity id the query does not return.
    public let isMissingEntity: Bool
    public init(_ description: String, isMissingEntity: Bool = false) {
        self.description = description
        self.isMissingEntity = isMissingEntity
    }

    /// A value as the host sent it, in JSON (`"x"`, `5`, `{"id":"p1"}`).
    public static func text(_ value: JSONValue) -> String {
        (try? WireCoding.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}

public protocol _OptionalIntentValue: _IntentValue {
    associatedtype Wrapped: _IntentValue
    static func wrap(_ value: Wrapped) -> Self
}

extension Optional: _IntentValue, _OptionalIntentValue where Wrapped: _IntentValue {
    public static var _intentValueType: IntentValueType { Wrapped._intentValueType }
    public static var _options: [IntentOption]? { Wrapped._options }
    public static var _missing: Wrapped?? { .some(nil) }
    public var _jsonValue: JSONValue { map(\._jsonValue) ?? .null }
    public static func _decode(_ value: JSONValue) async throws -> Wrapped? {
        value == .null ? nil : try await Wrapped._decode(value)
    }
    public static func wrap(_ value: Wrapped) -> Wrapped? { value }
}

extension String: _IntentValue {
    public static var _intentValueType: IntentValueType { .string }
    public var _jsonValue: JSONValue { .string(self) }
    public static func _decode(_ value: JSONValue) async throws -> String {
        guard case .string(let text) = value else { throw IntentValueError("expected a string, got \(IntentValueError.text(value))") }
        return text
    }
}

extension Int: _IntentValue {
    public static var _intentValueType: IntentValueType { .integer }
    public var _jsonValue: JSONValue { .integer(self) }
    public static func _decode(_ value: JSONValue) async throws -> Int {
        switch value {
        case .integer(let number): return number
        case .number(let number) where number.rounded() == number: return Int(number)
        default: throw IntentValueError("expected an integer, got \(IntentValueError.text(value))")
        }
    }
}

extension Double: _IntentValue {
    public static var _intentValueType: IntentValueType { .double }
    public var _jsonValue: JSONValue { .number(self) }
    public static func _decode(_ value: JSONValue) async throws -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let number): return number
        default: throw IntentValueError("expected a number, got \(IntentValueError.text(value))")
        }
    }
}

extension Bool: _IntentValue {
    public static var _intentValueType: IntentValueType { .boolean }
    public var _jsonValue: JSONValue { .bool(self) }
    public static func _decode(_ value: JSONValue) async throws -> Bool {
        guard case .bool(let flag) = value else { throw IntentValueError("expected true or false, got \(IntentValueError.text(value))") }
        return flag
    }
}

extension Date: _IntentValue {
    public static var _intentValueType: IntentValueType { .date }
    public var _jsonValue: JSONValue { .string(RFC3339.format(self)) }
    public static func _decode(_ value: JSONValue) async throws -> Date {
        guard case .string(let text) = value, let date = RFC3339.parse(text) else {
            throw IntentValueError("expected an RFC 3339 date, got \(IntentValueError.text(value))")
        }
        return date
    }
}
