import AppIntents
import Foundation
import SwiftUI
import Synchronization
import WidgetKit

// A configurable widget whose intent has a parameter of every type the host carries, and
// intents a button would run. Swift 6 rejects `static var title = …` (global mutable state),
// so these use `static let`; tests/Fixtures' Swift 5 target compiles the seed's `static var`.

enum Shade: String, AppEnum {
    case light, dark
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Shade"
    static let caseDisplayRepresentations: [Shade: DisplayRepresentation] = [
        .light: "Light", .dark: DisplayRepresentation(title: "Dark", subtitle: "For the night"),
    ]
}

struct ProjectEntity: AppEntity {
    let id: String
    let name: String
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Project"
    static let defaultQuery = ProjectQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }

    static let all = [ProjectEntity(id: "p1", name: "Garden"), ProjectEntity(id: "p2", name: "Kitchen")]
}

struct ProjectQuery: EntityQuery {
    /// How many times `entities(for:)` was asked, across the tests that use it.
    static let lookups = Atomic<Int>(0)
    func entities(for identifiers: [String]) async throws -> [ProjectEntity] {
        Self.lookups.add(1, ordering: .relaxed)
        return ProjectEntity.all.filter { identifiers.contains($0.id) }
    }
    func suggestedEntities() async throws -> [ProjectEntity] { ProjectEntity.all }
    func defaultResult() async -> ProjectEntity? { ProjectEntity.all.last }
}

/// An entity whose query fails, for `intent/options`' error.
struct BrokenEntity: AppEntity {
    let id: Int
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Broken"
    static let defaultQuery = BrokenQuery()
    var displayRepresentation: DisplayRepresentation { "broken \(id)" }
}

struct BrokenQuery: EntityQuery {
    struct Failure: Error, CustomStringConvertible { var description: String { "the store is locked" } }
    func entities(for identifiers: [Int]) async throws -> [BrokenEntity] { throw Failure() }
    func suggestedEntities() async throws -> [BrokenEntity] { throw Failure() }
}

struct EveryTypeIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Every type"
    static let description: IntentDescription? = IntentDescription("Shows one of each")

    @Parameter(title: "Name") var name: String
    @Parameter(title: "Note") var note: String?
    @Parameter(title: "Count", default: 3) var count: Int
    @Parameter(title: "Limit") var limit: Int?
    @Parameter(title: "Ratio", default: 0.5) var ratio: Double
    @Parameter(title: "Scale") var scale: Double?
    @Parameter(title: "Bold", default: false) var bold: Bool
    @Parameter(title: "Italic") var italic: Bool?
    @Parameter(title: "Due") var due: Date
    @Parameter(title: "Since") var since: Date?
    @Parameter(title: "Shade", default: .dark) var shade: Shade
    @Parameter(title: "Accent") var accent: Shade?
    @Parameter(title: "Main project") var mainProject: ProjectEntity
    @Parameter(title: "Project") var project: ProjectEntity?
    @Parameter(title: "Broken") var broken: BrokenEntity?
}

/// What the provider saw, as the entry's content.
struct EveryTypeEntry: TimelineEntry, Encodable {
    let date: Date
    let seen: [String: String]
}

struct EveryTypeProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> EveryTypeEntry { EveryTypeEntry(date: .now, seen: ["placeholder": "yes"]) }

    func snapshot(for configuration: EveryTypeIntent, in context: Context) async -> EveryTypeEntry {
        EveryTypeEntry(date: .now, seen: ["snapshotName": configuration.name, "preview": "\(context.isPreview)"])
    }

    func timeline(for configuration: EveryTypeIntent, in context: Context) async -> Timeline<EveryTypeEntry> {
        let c = configuration
        let seen: [String: String] = [
            "name": c.name, "note": c.note ?? "nil", "count": "\(c.count)", "limit": c.limit.map { "\($0)" } ?? "nil",
            "ratio": "\(c.ratio)", "scale": c.scale.map { "\($0)" } ?? "nil", "bold": "\(c.bold)",
            "italic": c.italic.map { "\($0)" } ?? "nil", "due": RFC3339Text.of(c.due),
            "since": c.since.map(RFC3339Text.of) ?? "nil", "shade": c.shade.rawValue, "accent": c.accent?.rawValue ?? "nil",
            "mainProject": c.mainProject.name, "project": c.project?.name ?? "nil",
        ]
        return Timeline(entries: [EveryTypeEntry(date: .now, seen: seen)], policy: .never)
    }
}

enum RFC3339Text {
    static func of(_ date: Date) -> String { date.ISO8601Format() }
}

struct EveryTypeWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "EveryType", intent: EveryTypeIntent.self, provider: EveryTypeProvider()) { entry in
            Text(entry.seen["name"] ?? "")
        }
        .supportedFamilies([.systemSmall])
    }
}

/// A configurable widget named by its modifiers, not its intent; and a static one beside it.
struct NamedConfigurableWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "Named", intent: EveryTypeIntent.self, provider: EveryTypeProvider()) { entry in
            Text(entry.seen["name"] ?? "")
        }
        .configurationDisplayName("Named")
        .description("Its own words")
    }
}

struct IntentWidgetBundle: WidgetBundle {
    var body: some Widget {
        EveryTypeWidget()
        NamedConfigurableWidget()
        PlainWidget()
    }
}

// MARK: - Intents a button runs

/// What the intents below did, for the tests to read.
final class IntentLedger: Sendable {
    static let shared = IntentLedger()
    private let done = Mutex<[String]>([])
    func record(_ task: String) { done.withLock { $0.append(task) } }
    var tasks: [String] { done.withLock { $0 } }
}

struct MarkDoneIntent: AppIntent {
    static let title: LocalizedStringResource = "Mark done"

    @Parameter(title: "Task") var task: String
    @Parameter(title: "Reload everything", default: false) var everything: Bool

    init() {}
    init(task: String, everything: Bool = false) {
        self.task = task
        self.everything = everything
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "the task list is read-only" } }

    func perform() async throws -> some IntentResult {
        if task == "read-only" { throw Refused() }
        IntentLedger.shared.record(task)
        WidgetCenter.shared.reloadTimelines(ofKind: "Tasks")
        WidgetCenter.shared.reloadTimelines(ofKind: "Streaks")
        if everything { WidgetCenter.shared.reloadAllTimelines() }
        return .result()
    }
}

/// A toggle's intent: the host gives the new state to `value`.
struct SetLampIntent: SetValueIntent {
    static let title: LocalizedStringResource = "Lamp"
    @Parameter(title: "On") var value: Bool
    @Parameter(title: "Room", default: "hall") var room: String

    func perform() async throws -> some IntentResult {
        IntentLedger.shared.record("lamp \(room) \(value ? "on" : "off")")
        return .result()
    }
}

/// Never registered by `typeName` before its test: found by name as a fresh process would.
struct FreshIntent: AppIntent {
    static let title: LocalizedStringResource = "Fresh"
    @Parameter(title: "Word", default: "hello") var word: String
    func perform() async throws -> some IntentResult {
        IntentLedger.shared.record("fresh \(word)")
        return .result()
    }
}

enum Outer {
    /// As `FreshIntent`, nested in another type.
    struct NestedIntent: AppIntent {
        static let title: LocalizedStringResource = "Nested"
        func perform() async throws -> some IntentResult {
            IntentLedger.shared.record("nested")
            return .result()
        }
    }
}
