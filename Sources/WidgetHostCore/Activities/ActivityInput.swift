import Foundation
import WidgetHostProtocol

/// The shapes ActivityKit's values have on the wire. `ActivityAttributes` and its
/// `ContentState` are Codable structs, so they travel as JSON objects; anything else (a
/// string, a number, an array, null) could never decode into them on the app's side and is
/// refused naming the field. Sizes, states and budgets are checked elsewhere.
enum ActivityInput {
    /// A refusal when `value`, sent as `field`, is not a JSON object.
    static func objectRefusal(_ value: JSONValue, field: String, what: String) -> ActivityRefusal? {
        if case .object = value { return nil }
        return .invalid("\(field) is \(value.shapeDescription), not an object; send the \(what) as a JSON object (its Codable encoding)")
    }

    /// The first refusal among a content payload's fields.
    static func contentRefusal(_ content: ActivityContentPayload, field: String) -> ActivityRefusal? {
        objectRefusal(content.state, field: field + ".state", what: "ContentState")
    }
}

extension JSONValue {
    /// `a string ("late")`, `an array`, `null`, … for messages that say what arrived.
    var shapeDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): "a boolean (\(value))"
        case .integer(let value): "a number (\(value))"
        case .number(let value): "a number (\(value))"
        case .string(let value): "a string (\"\(value.prefix(40))\")"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
