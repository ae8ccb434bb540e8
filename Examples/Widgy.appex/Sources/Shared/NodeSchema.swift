/// The node types of schema 1.0 and the properties each takes: what the validator checks
/// and the renderer relies on.
enum NodeSchema {
    enum FieldType: Equatable {
        case string
        case number
        case nonNegativeNumber
        case integer
        case color
        /// An array of nodes.
        case children
        /// One node.
        case child
        /// A number, or a string holding a `{{placeholder}}` that resolves to one.
        case boundNumber
        case oneOf([String])
    }

    struct Spec {
        let required: [(String, FieldType)]
        let optional: [(String, FieldType)]
    }

    static let stackAlignments = ["leading", "center", "trailing"]
    static let rowAlignments = ["top", "center", "bottom", "firstTextBaseline", "lastTextBaseline"]
    static let alignments = [
        "center", "topLeading", "top", "topTrailing", "leading", "trailing", "bottomLeading", "bottom", "bottomTrailing",
    ]
    static let fonts = [
        "largeTitle", "title", "title2", "title3", "headline", "subheadline", "body", "callout", "footnote", "caption",
        "caption2",
    ]
    static let weights = ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"]

    /// In the order the design lists them; error messages list them in this order too.
    static let types: [String] = [
        "VStack", "HStack", "ZStack", "Text", "SFSymbol", "Image", "Spacer", "Divider", "Gauge", "Frame", "Padding",
        "Conditional",
    ]

    static let specs: [String: Spec] = [
        "VStack": Spec(
            required: [("children", .children)],
            optional: [("alignment", .oneOf(stackAlignments)), ("spacing", .nonNegativeNumber)]),
        "HStack": Spec(
            required: [("children", .children)],
            optional: [("alignment", .oneOf(rowAlignments)), ("spacing", .nonNegativeNumber)]),
        "ZStack": Spec(required: [("children", .children)], optional: [("alignment", .oneOf(alignments))]),
        "Text": Spec(
            required: [("content", .string)],
            optional: [
                ("font", .oneOf(fonts)), ("weight", .oneOf(weights)), ("color", .color), ("lineLimit", .integer),
            ]),
        "SFSymbol": Spec(
            required: [("name", .string)],
            optional: [
                ("size", .nonNegativeNumber), ("color", .color),
                ("renderingMode", .oneOf(["monochrome", "hierarchical", "palette", "multicolor"])),
            ]),
        "Image": Spec(
            required: [("source", .string)],
            optional: [("contentMode", .oneOf(["fit", "fill"])), ("cornerRadius", .nonNegativeNumber)]),
        "Spacer": Spec(required: [], optional: [("minLength", .nonNegativeNumber)]),
        "Divider": Spec(required: [], optional: [("color", .color), ("thickness", .nonNegativeNumber)]),
        "Gauge": Spec(
            required: [("value", .boundNumber)],
            optional: [
                ("min", .number), ("max", .number), ("label", .string), ("style", .oneOf(["linear", "circular"])),
                ("color", .color),
            ]),
        "Frame": Spec(
            required: [("child", .child)],
            optional: [
                ("width", .nonNegativeNumber), ("height", .nonNegativeNumber), ("maxWidth", .nonNegativeNumber),
                ("maxHeight", .nonNegativeNumber), ("alignment", .oneOf(alignments)),
            ]),
        "Padding": Spec(
            required: [("child", .child)],
            optional: [
                ("edges", .oneOf(["all", "horizontal", "vertical", "top", "bottom", "leading", "trailing"])),
                ("length", .nonNegativeNumber),
            ]),
        "Conditional": Spec(
            required: [("condition", .string), ("trueChild", .child)], optional: [("falseChild", .child)]),
    ]

    /// An example value for a missing required field, for the error's fix.
    static func example(_ name: String, _ type: FieldType) -> String {
        switch type {
        case .children: "\"\(name)\": [{\"type\": \"Text\", \"content\": \"Hello\"}]"
        case .child: "\"\(name)\": {\"type\": \"Text\", \"content\": \"Hello\"}"
        case .boundNumber: "\"\(name)\": 0.5 or \"{{battery.level}}\""
        case .string where name == "condition": "\"\(name)\": \"{{weather.isRaining}}\""
        case .string where name == "name": "\"\(name)\": \"sun.max.fill\""
        case .string: "\"\(name)\": \"…\""
        default: "\"\(name)\": …"
        }
    }
}
