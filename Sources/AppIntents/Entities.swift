import Foundation
import WidgetHostProtocol

/// How a value is shown: a title, maybe a subtitle and an image.
public struct DisplayRepresentation: Sendable, ExpressibleByStringInterpolation {
    public struct Image: Sendable {
        public let systemName: String?
        public init(systemName: String) { self.systemName = systemName }
        public init(named name: String) { systemName = nil }
    }

    public var title: LocalizedStringResource
    public var subtitle: LocalizedStringResource?
    public var image: Image?

    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    public init(stringLiteral value: String) { self.init(title: LocalizedStringResource(value)) }
    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(title: LocalizedStringResource(String(stringInterpolation: stringInterpolation)))
    }
}

/// How a type is named: `TypeDisplayRepresentation(name: "Project")`.
public struct TypeDisplayRepresentation: Sendable, ExpressibleByStringInterpolation {
    public var name: LocalizedStringResource
    public var numericFormat: LocalizedStringResource?
    public init(name: LocalizedStringResource, numericFormat: LocalizedStringResource? = nil) {
        self.name = name
        self.numericFormat = numericFormat
    }
    public init(stringLiteral value: String) { self.init(name: LocalizedStringResource(value)) }
    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(name: LocalizedStringResource(String(stringInterpolation: stringInterpolation)))
    }
}

/// An enum a parameter can pick from: its cases are the choices.
public protocol AppEnum: _IntentValue, RawRepresentable, CaseIterable, Hashable where RawValue: LosslessStringConvertible {
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var _intentValueType: IntentValueType { .enum }
    public static var _options: [IntentOption]? {
        allCases.map { value in
            IntentOption(
                id: String(describing: value.rawValue),
                title: caseDisplayRepresentations[value]?.title.defaultValue ?? String(describing: value.rawValue),
                subtitle: caseDisplayRepresentations[value]?.subtitle?.defaultValue)
        }
    }
    public var _jsonValue: JSONValue { .string(String(describing: rawValue)) }
    public static func _decode(_ value: JSONValue) async throws -> Self {
        let text: String
        switch value {
        case .string(let string): text = string
        case .integer(let number): text = String(number)
        default: throw IntentValueError("expected one of \(Self.self)'s cases, got \(IntentValueError.text(value))")
        }
        guard let raw = RawValue(text), let found = Self(rawValue: raw) else {
            throw IntentValueError("\"\(text)\" is not one of \(Self.self)'s cases")
        }
        return found
    }
}

/// An app's thing a parameter can pick: the choices come from its query.
public protocol AppEntity: _IntentValue, Identifiable where ID: LosslessStringConvertible & Sendable {
    associatedtype DefaultQuery: EntityQuery = _NoQuery<Self>
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    var displayRepresentation: DisplayRepresentation { get }
    static var defaultQuery: DefaultQuery { get }
}

extension AppEntity where DefaultQuery == _NoQuery<Self> {
    public static var defaultQuery: _NoQuery<Self> { _NoQuery() }
}

extension AppEntity {
    public static var _intentValueType: IntentValueType { .entity }
    public var _jsonValue: JSONValue { .string(String(describing: id)) }
    public static func _decode(_ value: JSONValue) async throws -> Self {
        let text: String
        switch value {
        case .string(let string): text = string
        case .integer(let number): text = String(number)
        default: throw IntentValueError("expected an entity id, got \(IntentValueError.text(value))")
        }
        guard let id = ID(text) else { throw IntentValueError("\"\(text)\" is not an id of \(Self.self)") }
        let found = try await defaultQuery._entities(for: [String(describing: id)])
        guard let entity = found.lazy.compactMap({ $0 as? Self }).first else {
            throw IntentValueError("\(Self.self)'s query returns no entity with id \"\(text)\"", isMissingEntity: true)
        }
        return entity
    }

    var _option: IntentOption {
        IntentOption(
            id: String(describing: id), title: displayRepresentation.title.defaultValue,
            subtitle: displayRepresentation.subtitle?.defaultValue)
    }
}

/// Finds entities: by id (`entities(for:)`), the ones to suggest, the default.
public protocol EntityQuery: Sendable {
    associatedtype Entity: AppEntity
    init()
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    func suggestedEntities() async throws -> [Entity]
    func defaultResult() async -> Entity?
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
    public func defaultResult() async -> Entity? { nil }

    func _entities(for identifiers: [String]) async throws -> [any AppEntity] {
        try await entities(for: identifiers.compactMap { Entity.ID($0) })
    }

    /// What `intent/options` answers.
    public func _options() async throws -> IntentOptionsResult {
        let suggested = try await suggestedEntities()
        let fallback = await defaultResult()
        return IntentOptionsResult(options: suggested.map(\._option), defaultId: fallback.map { String(describing: $0.id) })
    }
}

/// The query of an entity that declares none: it finds nothing.
public struct _NoQuery<Entity: AppEntity>: EntityQuery {
    public init() {}
    public func entities(for identifiers: [Entity.ID]) async throws -> [Entity] { [] }
}
