import AppIntents
import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit

@Suite("Configurable widgets: AppIntentConfiguration served by the SDK")
struct AppIntentConfigurationTests {
    static let intentType = "WidgetKitTests.EveryTypeIntent"
    let channel = Channel(try! ExtensionServer(bundle: IntentWidgetBundle()))

    /// Every required value, and nothing else.
    static let required: JSONValue = ["name": "Ada", "due": "2026-03-01T09:00:00Z", "mainProject": "p1"]

    func seen(_ configuration: JSONValue?) async throws -> [String: String] {
        var params: [String: JSONValue] = [
            "kind": "EveryType", "family": "systemSmall", "widgetId": "w1", "now": "2026-02-15T08:00:00Z",
        ]
        params["configuration"] = configuration
        let timeline = try await channel.result("timeline/get", .object(params), as: TimelinePayload.self)
        return try #require(timeline.entries.first?.content["seen"]).decode(as: [String: String].self)
    }

    @Test("initialize declares the kind's intent: every parameter with its type, optionality, default and choices")
    func schema() async throws {
        let result = try await channel.result("initialize", as: InitializeResult.self)
        let descriptor = try #require(result.widgets.first)
        let intent = try #require(descriptor.intent)
        #expect(intent.type == Self.intentType)
        #expect(intent.title == "Every type")
        #expect(intent.description == "Shows one of each")
        let byName = Dictionary(uniqueKeysWithValues: intent.parameters.map { ($0.name, $0) })
        #expect(
            intent.parameters.map(\.name) == [
                "name", "note", "count", "limit", "ratio", "scale", "bold", "italic", "due", "since", "shade", "accent",
                "mainProject", "project", "broken",
            ])
        #expect(byName["name"] == IntentParameterSchema(name: "name", title: "Name", type: .string, optional: false))
        #expect(byName["note"] == IntentParameterSchema(name: "note", title: "Note", type: .string, optional: true))
        #expect(byName["count"] == IntentParameterSchema(name: "count", title: "Count", type: .integer, optional: false, default: 3))
        #expect(byName["limit"]?.type == .integer && byName["limit"]?.optional == true)
        #expect(byName["ratio"] == IntentParameterSchema(name: "ratio", title: "Ratio", type: .double, optional: false, default: 0.5))
        #expect(byName["scale"]?.type == .double && byName["scale"]?.optional == true)
        #expect(byName["bold"] == IntentParameterSchema(name: "bold", title: "Bold", type: .boolean, optional: false, default: false))
        #expect(byName["italic"]?.type == .boolean && byName["italic"]?.optional == true)
        #expect(byName["due"] == IntentParameterSchema(name: "due", title: "Due", type: .date, optional: false))
        #expect(byName["since"]?.type == .date && byName["since"]?.optional == true)
        let shades = [IntentOption(id: "light", title: "Light"), IntentOption(id: "dark", title: "Dark", subtitle: "For the night")]
        #expect(
            byName["shade"]
                == IntentParameterSchema(name: "shade", title: "Shade", type: .enum, optional: false, default: "dark", options: shades))
        #expect(byName["accent"] == IntentParameterSchema(name: "accent", title: "Accent", type: .enum, optional: true, options: shades))
        #expect(
            byName["mainProject"]
                == IntentParameterSchema(name: "mainProject", title: "Main project", type: .entity, optional: false, query: true))
        #expect(byName["project"] == IntentParameterSchema(name: "project", title: "Project", type: .entity, optional: true, query: true))
        #expect(byName["name"]?.isRequired == true && byName["count"]?.isRequired == false)
    }

    @Test("The gallery names a configurable kind by its intent, unless its modifiers say otherwise; static kinds carry no intent")
    func names() async throws {
        let widgets = try await channel.result("initialize", as: InitializeResult.self).widgets
        #expect(widgets.map(\.kind) == ["EveryType", "Named", "Plain"])
        #expect(widgets[0].displayName == "Every type" && widgets[0].description == "Shows one of each")
        #expect(widgets[1].displayName == "Named" && widgets[1].description == "Its own words")
        #expect(widgets[1].supportedFamilies == [.systemSmall, .systemMedium, .systemLarge])
        #expect(widgets[1].intent?.type == Self.intentType)
        #expect(widgets[2].intent == nil)
    }

    @Test("timeline/get decodes the configuration into the intent: required values given, the rest nil or defaults")
    func requiredOnly() async throws {
        let seen = try await seen(Self.required)
        #expect(
            seen == [
                "name": "Ada", "note": "nil", "count": "3", "limit": "nil", "ratio": "0.5", "scale": "nil", "bold": "false",
                "italic": "nil", "due": "2026-03-01T09:00:00Z", "since": "nil", "shade": "dark", "accent": "nil",
                "mainProject": "Garden", "project": "nil",
            ])
    }

    @Test("timeline/get decodes a value of every type, optional or not, entities through their query")
    func everyValue() async throws {
        let seen = try await seen([
            "name": "Ada", "note": "hi", "count": 7, "limit": 2, "ratio": 1.25, "scale": 2, "bold": true, "italic": false,
            "due": "2026-03-01T09:00:00Z", "since": "2026-01-01T00:00:00+01:00", "shade": "light", "accent": "dark",
            "mainProject": "p2", "project": "p1",
        ])
        #expect(
            seen == [
                "name": "Ada", "note": "hi", "count": "7", "limit": "2", "ratio": "1.25", "scale": "2.0", "bold": "true",
                "italic": "false", "due": "2026-03-01T09:00:00Z", "since": "2025-12-31T23:00:00Z", "shade": "light",
                "accent": "dark", "mainProject": "Kitchen", "project": "Garden",
            ])
    }

    @Test("A null is no value: an optional reads nil, a defaulted one its default")
    func nulls() async throws {
        var values = Self.required.objectValue ?? [:]
        values["note"] = .null
        values["count"] = .null
        let seen = try await seen(.object(values))
        #expect(seen["note"] == "nil" && seen["count"] == "3")
    }

    @Test("An optional entity its query no longer returns reads nil, as on a device; a required one is refused")
    func goneEntity() async throws {
        var values = Self.required.objectValue ?? [:]
        values["project"] = "deleted"
        #expect(try await seen(.object(values))["project"] == "nil")
        values["mainProject"] = "deleted"
        let error = try await channel.error(
            "timeline/get",
            ["kind": "EveryType", "family": "systemSmall", "widgetId": "w1", "now": "2026-02-15T08:00:00Z",
             "configuration": .object(values)])
        #expect(error.code == JSONRPCError.invalidParamsCode)
        #expect(error.message.contains("EveryTypeIntent.mainProject"))
        #expect(error.message.contains("ProjectEntity's query returns no entity with id \"deleted\""))
    }

    @Test(
        "A configuration that does not fit the intent is -32602 naming the parameter",
        arguments: [
            (["name": 5], "EveryTypeIntent.name: expected a string, got 5"),
            (["count": "three"], "EveryTypeIntent.count: expected an integer"),
            (["count": 2.5], "EveryTypeIntent.count: expected an integer"),
            (["ratio": "x"], "EveryTypeIntent.ratio: expected a number"),
            (["bold": "yes"], "EveryTypeIntent.bold: expected true or false"),
            (["due": "tomorrow"], "EveryTypeIntent.due: expected an RFC 3339 date"),
            (["shade": "purple"], "EveryTypeIntent.shade: \"purple\" is not one of Shade's cases"),
            (["shade": true], "EveryTypeIntent.shade: expected one of Shade's cases"),
            (["mainProject": ["id": "p1"]], "EveryTypeIntent.mainProject: expected an entity id"),
            (["name": .null], "EveryTypeIntent.name (Name) needs a value and has no default"),
        ] as [(JSONValue, String)])
    func misfits(change: JSONValue, message: String) async throws {
        var values = Self.required.objectValue ?? [:]
        for (key, value) in change.objectValue ?? [:] { values[key] = value }
        let error = try await channel.error(
            "timeline/get",
            ["kind": "EveryType", "family": "systemSmall", "widgetId": "w1", "now": "2026-02-15T08:00:00Z",
             "configuration": .object(values)])
        #expect(error.code == JSONRPCError.invalidParamsCode)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("A configuration that is not an object is -32602")
    func configurationNotAnObject() async throws {
        let error = try await channel.error(
            "timeline/get",
            ["kind": "EveryType", "family": "systemSmall", "widgetId": "w1", "now": "2026-02-15T08:00:00Z",
             "configuration": ["p1"]])
        #expect(error == .invalidParams("\"configuration\" must be an object of the intent's values by parameter name"))
    }

    @Test("snapshot/get gets the configuration too; placeholder/get needs none")
    func snapshotAndPlaceholder() async throws {
        let snapshot = try await channel.result(
            "snapshot/get",
            ["kind": "EveryType", "family": "systemSmall", "isPreview": true, "configuration": Self.required],
            as: TimelineEntryPayload.self)
        #expect(snapshot.content["seen"] == ["snapshotName": "Ada", "preview": "true"])
        #expect(snapshot.view != nil)
        let placeholder = try await channel.result(
            "placeholder/get", ["kind": "EveryType", "family": "systemSmall"], as: TimelineEntryPayload.self)
        #expect(placeholder.content["seen"] == ["placeholder": "yes"])
    }

    @Test("A static kind ignores a configuration")
    func staticIgnores() async throws {
        let timeline = try await channel.result(
            "timeline/get",
            ["kind": "Plain", "family": "systemSmall", "widgetId": "w1", "now": "2026-02-15T08:00:00Z",
             "configuration": ["name": "x"]], as: TimelinePayload.self)
        #expect(timeline.entries.count == 1)
    }

    // MARK: intent/options

    @Test("intent/options answers an entity parameter from its query: suggested entities and the default result")
    func entityOptions() async throws {
        let options = try await channel.result(
            "intent/options", ["kind": "EveryType", "parameter": "project"], as: IntentOptionsResult.self)
        #expect(options == IntentOptionsResult(options: [.init(id: "p1", title: "Garden"), .init(id: "p2", title: "Kitchen")], defaultId: "p2"))
        let required = try await channel.result(
            "intent/options", ["kind": "EveryType", "parameter": "mainProject"], as: IntentOptionsResult.self)
        #expect(required.options.map(\.id) == ["p1", "p2"])
    }

    @Test("intent/options answers an enum parameter with its cases, and a plain one with none")
    func enumOptions() async throws {
        let shade = try await channel.result(
            "intent/options", ["kind": "EveryType", "parameter": "accent"], as: IntentOptionsResult.self)
        #expect(shade.options.map(\.id) == ["light", "dark"])
        let name = try await channel.result(
            "intent/options", ["kind": "EveryType", "parameter": "name"], as: IntentOptionsResult.self)
        #expect(name.options.isEmpty)
    }

    @Test(
        "intent/options refuses what it cannot answer, saying what is accepted",
        arguments: [
            (["kind": "Nope", "parameter": "x"], -32602, "unknown widget kind \"Nope\"; this extension offers \"EveryType\", \"Named\", \"Plain\""),
            (["kind": "Plain", "parameter": "x"], -32602, "Plain is not configurable (a StaticConfiguration)"),
            (["kind": "EveryType", "parameter": "colour"], -32602,
             "EveryType's intent Every type has no parameter \"colour\"; its parameters are \"name\", \"note\""),
            (["kind": "EveryType"], -32602, "intent/options needs params {kind, parameter}"),
            (["kind": "EveryType", "parameter": "broken"], -32603,
             "the options of EveryType.broken failed: the store is locked"),
        ] as [(JSONValue, Int, String)])
    func optionsRefused(params: JSONValue, code: Int, message: String) async throws {
        let error = try await channel.error("intent/options", params)
        #expect(error.code == code)
        #expect(error.message.contains(message), "\(error.message)")
    }
}

extension JSONValue {
    var objectValue: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }
}
