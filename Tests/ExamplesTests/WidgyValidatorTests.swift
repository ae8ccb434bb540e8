import Foundation
import Testing
import WidgyShared

@Suite("Widgy: the config validator")
struct WidgyValidatorTests {
    static let sampleURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Widgy.appex/sample-weather.json")

    /// A valid config whose layout is `layout`.
    static func config(layout: String, extra: String = "") -> String {
        """
        {"schema_version": "1.0", "widget_id": "w", "name": "W", "supported_families": ["systemSmall"],
         \(extra) "layout": \(layout)}
        """
    }

    static func problems(_ text: String) -> [String] {
        switch ConfigValidator.validate(Data(text.utf8)) {
        case .success: return []
        case .failure(let error): return error.problems.map(\.description)
        }
    }

    @Test("The shipped sample is valid, with every node type the sample uses")
    func sample() throws {
        let config = try ConfigValidator.validate(Data(contentsOf: Self.sampleURL)).get()
        #expect(config.widgetID == "morning-weather" && config.supportedFamilies == [.systemSmall, .systemMedium])
    }

    @Test("Every node type, with every optional property, is accepted")
    func everyNodeType() {
        let layout = """
            {"type": "ZStack", "alignment": "topLeading", "children": [
              {"type": "VStack", "alignment": "leading", "spacing": 4, "children": [
                {"type": "HStack", "alignment": "firstTextBaseline", "spacing": 2, "children": [
                  {"type": "Text", "content": "{{a.b}} km", "font": "caption2", "weight": "heavy", "color": "#fff", "lineLimit": 2},
                  {"type": "SFSymbol", "name": "star", "size": 12, "color": "#FFD700aa", "renderingMode": "palette"},
                  {"type": "Image", "source": "asset:logo", "contentMode": "fill", "cornerRadius": 4},
                  {"type": "Spacer", "minLength": 0},
                  {"type": "Divider", "color": "#123456", "thickness": 1}]},
                {"type": "Gauge", "value": 0.4, "min": 0, "max": 1, "label": "Done", "style": "circular", "color": "#0F0"},
                {"type": "Frame", "width": 40, "height": 40, "maxWidth": 100, "maxHeight": 100, "alignment": "bottom",
                 "child": {"type": "Padding", "edges": "horizontal", "length": 8, "child": {"type": "Text", "content": "x"}}},
                {"type": "Conditional", "condition": "{{flag}}", "trueChild": {"type": "Text", "content": "yes"},
                 "falseChild": {"type": "Text", "content": "no"}}]}]}
            """
        #expect(Self.problems(Self.config(layout: layout, extra: ##""background": {"type": "color", "color": "#000000"},"##)) == [])
    }

    @Test(
        "Each invalid config gets its specific error, naming the path in the JSON",
        arguments: [
            (#"{"schema_version": "2.0", "widget_id": "w", "name": "W", "supported_families": ["systemSmall"], "layout": {"type": "Spacer"}}"#,
             #"schema_version: "2.0" is not supported; this Widgy reads schema 1.0"#),
            (#"{"widget_id": "w", "name": "W", "supported_families": ["systemSmall"], "layout": {"type": "Spacer"}}"#,
             #"schema_version: is required; add "schema_version": "1.0""#),
            (#"{"schema_version": 1, "widget_id": "w", "name": "W", "supported_families": ["systemSmall"], "layout": {"type": "Spacer"}}"#,
             #"schema_version: is a number; it must be a string"#),
            (#"{"schema_version": "1.0", "name": "W", "supported_families": ["systemSmall"], "layout": {"type": "Spacer"}}"#,
             #"widget_id: is required"#),
            (#"{"schema_version": "1.0", "widget_id": "../etc", "name": "W", "supported_families": ["systemSmall"], "layout": {"type": "Spacer"}}"#,
             #"widget_id: "../etc" cannot name a file"#),
            (#"{"schema_version": "1.0", "widget_id": "w", "supported_families": ["systemSmall"], "layout": {"type": "Spacer"}}"#,
             #"name: is required"#),
            (#"{"schema_version": "1.0", "widget_id": "w", "name": "W", "layout": {"type": "Spacer"}}"#,
             #"supported_families: is required"#),
            (#"{"schema_version": "1.0", "widget_id": "w", "name": "W", "supported_families": [], "layout": {"type": "Spacer"}}"#,
             #"supported_families: must be a non-empty array of families"#),
            (#"{"schema_version": "1.0", "widget_id": "w", "name": "W", "supported_families": ["systemSmall", "huge"], "layout": {"type": "Spacer"}}"#,
             #"supported_families[1]: "huge" is not a widget family; use one of systemSmall"#),
            (#"{"schema_version": "1.0", "widget_id": "w", "name": "W", "supported_families": ["systemSmall"]}"#,
             #"layout: is required; add the root node"#),
            (#"[1, 2]"#, #"the config: is an array; a config is a JSON object"#),
            (#"{"schema_version": "1.0",,}"#, #"the config: is not valid JSON"#),
        ])
    func topLevel(text: String, expected: String) {
        let problems = Self.problems(text)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.hasPrefix(expected) == true, "\(problems)")
    }

    @Test(
        "Each invalid node gets its specific error at its path",
        arguments: [
            (#"{"type": "VStack"}"#, #"layout.children: is required for a VStack node; add "children": ["#),
            (#"{"type": "VStack", "children": {}}"#, #"layout.children: is an object; it must be an array of nodes"#),
            (#"{"children": []}"#, #"layout.type: is required; use one of VStack, HStack, ZStack, Text, SFSymbol, Image, Spacer, Divider, Gauge, Frame, Padding, Conditional"#),
            (#"{"type": "Circle"}"#, #"layout.type: "Circle" is not a node type; use one of VStack"#),
            (#""Hello""#, #"layout: is a string; a node is an object with a "type""#),
            (#"{"type": "HStack", "children": [{"type": "Spacer"}, {"type": "Text"}]}"#,
             #"layout.children[1].content: is required for a Text node"#),
            (##"{"type": "HStack", "children": [{"type": "Text", "content": "x", "color": "#GG0000"}]}"##,
             ##"layout.children[0].color: "#GG0000" is not a hex colour; use #RGB, #RRGGBB or #RRGGBBAA"##),
            (#"{"type": "Divider", "color": "red"}"#, #"layout.color: "red" is not a hex colour"#),
            (##"{"type": "Divider", "color": "#12345"}"##, ##"layout.color: "#12345" is not a hex colour"##),
            (#"{"type": "Text", "content": "{{weather.temp"}"#, #"layout.content: the placeholder "{{weather.temp" is not closed"#),
            (#"{"type": "Text", "content": "{{ }}"}"#, #"layout.content: "{{ }}" is not a placeholder name"#),
            (#"{"type": "Text", "content": "x", "font": "huge"}"#, #"layout.font: "huge" is not allowed; use one of largeTitle"#),
            (#"{"type": "Text", "content": "x", "lineLimit": 1.5}"#, #"layout.lineLimit: 1.5 must be a whole number"#),
            (#"{"type": "VStack", "spacing": -2, "children": []}"#, #"layout.spacing: -2 is negative"#),
            (#"{"type": "SFSymbol", "name": "star", "size": "big"}"#, #"layout.size: is a string; it must be a number"#),
            (#"{"type": "Image"}"#, #"layout.source: is required for a Image node"#),
            (#"{"type": "Gauge"}"#, #"layout.value: is required for a Gauge node"#),
            (#"{"type": "Gauge", "value": "high"}"#, #"layout.value: "high" must be a number or exactly one placeholder"#),
            (#"{"type": "Gauge", "value": 1, "min": 5, "max": 5}"#, #"layout.max: 5 must be greater than min (5)"#),
            (#"{"type": "Frame", "width": 10}"#, #"layout.child: is required for a Frame node"#),
            (#"{"type": "Padding", "child": {"type": "Text"}}"#, #"layout.child.content: is required for a Text node"#),
            (#"{"type": "Conditional", "condition": "yes", "trueChild": {"type": "Spacer"}}"#,
             #"layout.condition: "yes" binds no data, so it never changes"#),
            (#"{"type": "Conditional", "condition": "{{a}}"}"#, #"layout.trueChild: is required for a Conditional node"#),
        ])
    func nodes(layout: String, expected: String) {
        let problems = Self.problems(Self.config(layout: layout))
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.hasPrefix(expected) == true, "\(problems)")
    }

    @Test(
        "Backgrounds: a colour or a gradient of at least two hex colours",
        arguments: [
            (#"{"type": "color"}"#, #"background.color: is required; give a hex colour"#),
            (##"{"type": "gradient", "colors": ["#000"]}"##, ##"background.colors: a gradient needs an array of at least two colours"##),
            (##"{"type": "gradient", "colors": ["#000", "blue"]}"##, ##"background.colors[1]: "blue" is not a hex colour"##),
            (#"{"type": "image"}"#, #"background.type: "image"; use "color" or "gradient""#),
            (##""#000""##, ##"background: is a string"##),
        ])
    func background(background: String, expected: String) {
        let problems = Self.problems(Self.config(layout: #"{"type": "Spacer"}"#, extra: #""background": \#(background),"#))
        #expect(problems.count == 1 && problems.first?.hasPrefix(expected) == true, "\(problems)")
    }

    /// `levels` nested Padding nodes around a Text.
    static func nested(_ levels: Int) -> String {
        (1..<levels).reduce(#"{"type": "Text", "content": "deep"}"#) { inner, _ in #"{"type": "Padding", "child": \#(inner)}"# }
    }

    @Test("Nesting: 10 levels are accepted; the 11th is refused at its path")
    func depth() {
        #expect(Self.problems(Self.config(layout: Self.nested(10))) == [])
        let problems = Self.problems(Self.config(layout: Self.nested(11)))
        let path = "layout" + String(repeating: ".child", count: 10)
        #expect(problems == ["\(path): is nested 11 levels deep, more than the maximum of 10; flatten the layout (fewer stacks inside stacks)"])
    }

    @Test("All problems are reported at once, in document order")
    func several() {
        let problems = Self.problems(
            #"{"schema_version": "9", "widget_id": "w", "name": "W", "supported_families": ["systemSmall"], "layout": {"type": "VStack", "children": [{"type": "Text"}, {"type": "Divider", "color": "x"}]}}"#)
        #expect(problems.count == 3)
        #expect(problems.map { String($0.prefix(while: { $0 != ":" })) } == ["schema_version", "layout.children[0].content", "layout.children[1].color"])
    }

    @Test("Hex colours", arguments: [("#abc", true), ("#AABBCC", true), ("#AABBCCDD", true), ("#ABCD", false), ("AABBCC", false), ("#AABBCG", false), ("#", false)])
    func hex(text: String, valid: Bool) {
        #expect(ConfigValidator.isHexColor(text) == valid)
    }
}
