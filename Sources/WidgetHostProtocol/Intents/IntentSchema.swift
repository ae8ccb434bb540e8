import Foundation

/// The values an intent's parameters hold, by parameter name: strings, numbers, booleans,
/// RFC 3339 dates, an `AppEnum`'s raw value, an `AppEntity`'s id. A missing name (or null)
/// is "no value".
public typealias IntentValues = [String: JSONValue]

/// What an `AppIntent`'s parameters are, as `initialize` declares them for a configurable
/// kind (`WidgetDescriptor.intent`) or a control's action: the host validates a widget's
/// configuration against it before the extension ever sees one.
public struct IntentSchema: Sendable, Hashable, Codable {
    /// The intent's type, as the extension names it (`SelectProjectIntent`).
    public var type: String
    /// `static var title`.
    public var title: String
    public var description: String?
    public var parameters: [IntentParameterSchema]

    public init(type: String, title: String, description: String? = nil, parameters: [IntentParameterSchema]) {
        self.type = type
        self.title = title
        self.description = description
        self.parameters = parameters
    }

    public func parameter(named name: String) -> IntentParameterSchema? {
        parameters.first { $0.name == name }
    }
}

/// One `@Parameter`.
public struct IntentParameterSchema: Sendable, Hashable, Codable {
    /// The property's name (`project`).
    public var name: String
    /// `@Parameter(title:)`.
    public var title: String
    public var type: IntentValueType
    /// Declared optional (`var project: ProjectEntity?`): it may have no value.
    public var optional: Bool
    /// `@Parameter(default:)`, in the wire form of its type.
    public var `default`: JSONValue?
    /// The fixed choices of an `AppEnum` (its cases), or of an entity whose query the host
    /// need not ask; absent for an entity whose choices come from its query.
    public var options: [IntentOption]?
    /// An entity's choices come from its `EntityQuery` (`intent/options` asks for them).
    public var query: Bool?

    public init(
        name: String, title: String, type: IntentValueType, optional: Bool, default: JSONValue? = nil,
        options: [IntentOption]? = nil, query: Bool? = nil
    ) {
        self.name = name
        self.title = title
        self.type = type
        self.optional = optional
        self.default = `default`
        self.options = options
        self.query = query
    }

    /// Needs a value: not optional and without a default.
    public var isRequired: Bool { !optional && `default` == nil }
}

/// The types a parameter can have, as they travel.
public enum IntentValueType: String, Sendable, Hashable, Codable, CaseIterable {
    case string
    case integer
    case double
    case boolean
    /// An RFC 3339 string.
    case date
    /// An `AppEnum`: one of `options`' ids (its raw values).
    case `enum`
    /// An `AppEntity`: its id, one the query returns.
    case entity
}

/// A choice for a parameter: an enum case or an entity, with what the user sees.
public struct IntentOption: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var subtitle: String?

    public init(id: String, title: String, subtitle: String? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
    }
}

/// An intent and its parameter values: what a `Button(intent:)` carries in the archive and
/// what `intent/perform` asks the extension to run.
public struct IntentInvocation: Sendable, Hashable, Codable {
    /// The type the extension knows the intent by (the Swift SDK writes the type's full name, `Module.Type`).
    public var type: String
    /// The intent's title, for people (events, status).
    public var title: String?
    public var parameters: IntentValues

    public init(type: String, title: String? = nil, parameters: IntentValues = [:]) {
        self.type = type
        self.title = title
        self.parameters = parameters
    }

    /// How events and errors name it.
    public var displayName: String { title ?? type }
}
