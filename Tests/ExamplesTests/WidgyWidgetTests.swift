import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit
import WidgyShared

@Suite("Widgy: the widget, data binding and the widgy app")
struct WidgyWidgetTests {
    static let now = Date(timeIntervalSince1970: 1_771_142_400)

    static func provider(_ temporary: TemporaryContainer?) -> WidgyProvider {
        let url = temporary?.url
        return WidgyProvider(container: { url.map(WidgyContainer.init) }, now: { now })
    }

    static func config(id: String, families: [String], layout: String) -> Data {
        Data(
            """
            {"schema_version": "1.0", "widget_id": "\(id)", "name": "\(id)",
             "supported_families": [\(families.map { "\"\($0)\"" }.joined(separator: ", "))], "layout": \(layout)}
            """.utf8)
    }

    static func view(_ provider: WidgyProvider, _ family: WidgetFamily) async -> WidgySummary {
        let timeline = await provider.timeline(for: SelectWidgetIntent(), in: TimelineProviderContext(family: family))
        #expect(timeline.entries.count == 1 && timeline.policy == .never)
        return WidgySummary(entry: timeline.entries[0])
    }

    @Test("Each family shows the most recently saved config that supports it; others show the empty state")
    func families() async throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let container = WidgyContainer(url: temporary.url)
        try container.save(Self.config(id: "a", families: ["systemSmall", "systemMedium"], layout: #"{"type": "Spacer"}"#), now: Self.now)
        try container.save(Self.config(id: "b", families: ["systemMedium"], layout: #"{"type": "Divider"}"#), now: Self.now)
        let provider = Self.provider(temporary)
        #expect(await Self.view(provider, .systemSmall).widgetID == "a")
        #expect(await Self.view(provider, .systemMedium).widgetID == "b")
        let large = await Self.view(provider, .systemLarge)
        #expect(large.emptyState == "Create a widget in Widgy" && large.layout == nil)
        // Saving "a" again makes it the most recent.
        try container.save(Self.config(id: "a", families: ["systemSmall", "systemMedium"], layout: #"{"type": "Spacer"}"#))
        #expect(await Self.view(provider, .systemMedium).widgetID == "a")
        #expect(try container.manifest().widgets.map(\.widgetID) == ["a", "b"])
    }

    @Test("Placeholders bind to the app's data; missing ones are listed; a Conditional picks its branch")
    func binding() throws {
        let layout: JSON = try JSONDecoder().decode(
            JSON.self,
            from: Data(
                #"""
                {"type": "VStack", "children": [
                  {"type": "Text", "content": "{{weather.temperature}}° in {{city}}"},
                  {"type": "Gauge", "value": "{{battery}}", "min": 0, "max": 1},
                  {"type": "Gauge", "value": "{{missing.level}}", "min": 0.2, "max": 1},
                  {"type": "Conditional", "condition": "{{weather.isRaining}}",
                   "trueChild": {"type": "Text", "content": "umbrella"}, "falseChild": {"type": "Text", "content": "sun"}},
                  {"type": "Conditional", "condition": "{{flag}}", "trueChild": {"type": "Spacer"}},
                  {"type": "Padding", "child": {"type": "Conditional", "condition": "{{flag}}", "trueChild": {"type": "Spacer"}}}]}
                """#.utf8))
        let data: JSON = .object([
            "weather": .object(["temperature": .number(14), "isRaining": .bool(false)]), "battery": .number(0.25),
            "flag": .string("no"),
        ])
        let bound = BoundLayout(layout, data: data)
        guard case .array(let children)? = bound.layout["children"] else {
            Issue.record("no children in \(bound.layout)")
            return
        }
        #expect(children.count == 5, "the false Conditional without falseChild is dropped")
        #expect(children[0]["content"] == .string("14° in "))
        #expect(children[1]["value"] == .number(0.25))
        #expect(children[2]["value"] == .number(0.2), "an unbound gauge shows its minimum")
        #expect(children[3] == .object(["type": "Text", "content": "sun"]))
        #expect(children[4]["child"] == BoundLayout.emptyNode)
        #expect(bound.missing == ["city", "missing.level"])
    }

    @Test("A config edited into something invalid after saving shows a problem naming the file and the path")
    func problem() async throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let container = WidgyContainer(url: temporary.url)
        try container.save(Self.config(id: "a", families: ["systemSmall"], layout: #"{"type": "Spacer"}"#))
        try Self.config(id: "a", families: ["systemSmall"], layout: #"{"type": "Text"}"#).write(to: container.configURL(id: "a"))
        let view = await Self.view(Self.provider(temporary), .systemSmall)
        #expect(view.problem == #"configs/a.json: layout.content: is required for a Text node; add "content": "…""#)
        try FileManager.default.removeItem(at: container.configURL(id: "a"))
        #expect(await Self.view(Self.provider(temporary), .systemSmall).problem == #"configs/a.json is missing; save "a" again in Widgy"#)
    }

    @Test("No container, an empty one, or only data: the empty state in every family")
    func emptyState() async throws {
        let empty = try TemporaryContainer()
        defer { empty.remove() }
        try WidgyContainer(url: empty.url).setData("weather.temperature", to: .number(3))
        for temporary in [nil, empty] {
            for family in [WidgetFamily.systemSmall, .systemMedium, .systemLarge] {
                #expect(await Self.view(Self.provider(temporary), family).emptyState == "Create a widget in Widgy")
            }
        }
    }

    @Test("The placeholder is a sample widget and reads nothing from the App Group")
    func placeholder() {
        let provider = WidgyProvider(container: { Issue.record("the placeholder read the App Group"); return nil })
        #expect(WidgySummary(entry: provider.placeholder(in: TimelineProviderContext(family: .systemSmall))).widgetID == "sample")
    }

    @Test("An invalid config is not saved, and the manifest is untouched")
    func saveRefused() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let container = WidgyContainer(url: temporary.url)
        #expect(throws: ConfigValidationError.self) {
            try container.save(Self.config(id: "bad", families: ["systemSmall"], layout: #"{"type": "Blob"}"#))
        }
        #expect(!FileManager.default.fileExists(atPath: container.configURL(id: "bad").path))
        #expect(try container.manifest().widgets.isEmpty)
    }

    @Test("Over the extension channel and as a built process: the sample config with the sample data")
    func channelAndProcess() async throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let examples = WidgyValidatorTests.sampleURL.deletingLastPathComponent()
        let app = AppCommand(name: "widgy", group: WidgyContainer.appGroup, container: temporary.url)
        let widget = ExtensionUnderTest("WidgyWidget", appGroups: [WidgyContainer.appGroup: temporary.url])
        #expect(try widget.timeline(kind: "WidgyWidget", family: "systemSmall")["entries"]?[0]?.viewTexts == ["Create a widget in Widgy"])
        let saved = try app.run(["save", examples.appendingPathComponent("sample-weather.json").path])
        #expect(saved.status == 0 && saved.output.contains("saved morning-weather"), "\(saved.error)")
        #expect(saved.error.contains("WidgetCenter: reloadTimelines(ofKind: \"WidgyWidget\") failed"), "the app reloads on save")
        #expect(try app.run(["data", "--file", examples.appendingPathComponent("sample-data.json").path]).status == 0)
        let channel = try ExampleChannel(WidgyWidget(provider: Self.provider(temporary)))
        for family in [WidgetFamily.systemSmall, .systemMedium, .systemLarge] {
            let timeline = try await channel.timeline("WidgyWidget", family)
            let process = try widget.timeline(kind: "WidgyWidget", family: family.rawValue)
            #expect(timeline.policy == .never && process["policy"] == ["type": "never"])
            let view = try #require(timeline.entries.first?.view)
            let designed = view.root.allModifiers.contains(.widgetURL("widgy://edit/morning-weather"))
            #expect(designed == (family != .systemLarge))
            if designed {
                // The design's nodes, bound to the sample data, drawn by the seed's NodeRenderer.
                let texts = view.root.texts
                #expect(texts.count >= 3 && !texts.contains { $0.contains("{{") }, "\(texts)")
                #expect(view.root.allNodes.contains { if case .gauge = $0.content { true } else { false } })
                #expect(view.root.allModifiers.contains { if case .containerBackground(_, let background?, _) = $0 { background.type == "fill" } else { false } })
            } else {
                #expect(view.root.texts == ["Create a widget in Widgy"])
            }
            #expect(process["entries"]?[0]?.viewArchive == view)
        }
    }

    @Test("widgy validate prints every problem with the file and path, and exits 1")
    func validateCommand() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("bad.json")
        try Self.config(id: "x", families: ["tiny"], layout: ##"{"type": "Text", "content": "a", "color": "#XYZ"}"##).write(to: file)
        let app = AppCommand(name: "widgy", group: WidgyContainer.appGroup, container: temporary.url)
        let run = try app.run(["validate", file.path])
        #expect(run.status == 1)
        #expect(run.error.contains("\(file.path): supported_families[0]: \"tiny\" is not a widget family"))
        #expect(run.error.contains("\(file.path): layout.color: \"#XYZ\" is not a hex colour"))
        let save = try app.run(["save", file.path])
        #expect(save.status == 1 && !FileManager.default.fileExists(atPath: temporary.url.appendingPathComponent("configs/x.json").path))
    }

    @Test("Concurrent saves from separate app processes and threads never drop a manifest entry")
    func concurrentSaves() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let files = try (0..<6).map { index in
            let file = temporary.url.appendingPathComponent("p\(index).json")
            try Self.config(id: "p\(index)", families: ["systemSmall"], layout: #"{"type": "Spacer"}"#).write(to: file)
            return file
        }
        let app = AppCommand(name: "widgy", group: WidgyContainer.appGroup, container: temporary.url)
        try app.runConcurrently(files.map { ["save", $0.path] } + [["data", "k.a", "1"], ["data", "k.b", "2"]])
        let url = temporary.url
        try concurrently(4) { thread in
            for index in 0..<10 {
                try WidgyContainer(url: url).save(Self.config(id: "t\(thread)-\(index)", families: ["systemSmall"], layout: #"{"type": "Spacer"}"#))
            }
        }
        let container = WidgyContainer(url: url)
        #expect(Set(try container.manifest().widgets.map(\.widgetID)).count == 46)
        #expect(container.data() == .object(["k": .object(["a": .number(1), "b": .number(2)])]))
    }
}
