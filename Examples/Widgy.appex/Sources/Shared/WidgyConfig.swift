import WidgetKit

/// A config that passed `ConfigValidator`: its identity, families and layout tree.
public struct WidgyConfig: Sendable, Hashable {
    public let schemaVersion: String
    public let widgetID: String
    public let name: String
    public let supportedFamilies: [WidgetFamily]
    public let background: JSON?
    /// The root node, checked against `NodeSchema`.
    public let layout: JSON
    /// The whole config as read, written back unchanged by `widgy save`.
    public let source: JSON
}

/// The layout with its data bound: placeholders replaced by the app's data, each
/// Conditional replaced by the branch its condition picks. What the widget's content
/// carries to the display, which draws the nodes as the SwiftUI renderer would.
public struct BoundLayout: Sendable, Hashable {
    public let layout: JSON
    /// Placeholders the data has no value for, sorted (shown as empty text).
    public let missing: [String]

    public static let emptyNode: JSON = .object(["type": .string("EmptyView")])

    public init(_ layout: JSON, data: JSON) {
        var missing: Set<String> = []
        self.layout = Self.bind(layout, data: data, missing: &missing) ?? Self.emptyNode
        self.missing = missing.sorted()
    }

    /// nil: a Conditional that is false and has no falseChild (it shows nothing).
    private static func bind(_ node: JSON, data: JSON, missing: inout Set<String>) -> JSON? {
        guard case .object(var fields) = node else { return node }
        if fields["type"] == .string("Conditional") {
            let condition = fields["condition"].map { text($0, data: data, missing: &missing) } ?? ""
            let branch = isTrue(condition) ? fields["trueChild"] : fields["falseChild"]
            return branch.flatMap { bind($0, data: data, missing: &missing) }
        }
        for (key, value) in fields {
            switch value {
            case .string:
                let bound = text(value, data: data, missing: &missing)
                if key == "value", fields["type"] == .string("Gauge") {
                    // A gauge needs a number: unbound or not numeric, it shows its minimum.
                    fields[key] = .number(Double(bound) ?? fields["min"].flatMap(number) ?? 0)
                } else {
                    fields[key] = .string(bound)
                }
            case .array(let children) where key == "children":
                fields[key] = .array(children.compactMap { bind($0, data: data, missing: &missing) })
            case .object where key.hasSuffix("child") || key.hasSuffix("Child"):
                fields[key] = bind(value, data: data, missing: &missing) ?? emptyNode
            default:
                break
            }
        }
        return .object(fields)
    }

    private static func text(_ value: JSON, data: JSON, missing: inout Set<String>) -> String {
        guard case .string(let template) = value, case .success(let pieces) = Placeholder.parse(template) else {
            return ""
        }
        return pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .binding(let name):
                guard let value = Placeholder.value(of: name, in: data) else {
                    missing.insert(name)
                    return ""
                }
                return value
            }
        }.joined()
    }

    private static func number(_ value: JSON) -> Double? {
        if case .number(let number) = value { return number }
        return nil
    }

    /// Empty, "false", "0" and "no" are false; anything else is true.
    static func isTrue(_ text: String) -> Bool {
        !["", "false", "0", "no"].contains(text.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
