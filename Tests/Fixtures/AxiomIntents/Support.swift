// What the seed's snippets refer to but never show, written for this fixture in the seed's own
// style (Swift 5: `static var title`).
import AppIntents
import SwiftUI
import WidgetKit

struct SimpleEntry: TimelineEntry {
    let date: Date
    let project: ProjectEntity?
    var status: String { project?.name ?? "No project" }
}

actor ProjectStore {
    static let shared = ProjectStore()
    private let projects = [ProjectEntity(id: "p1", name: "Garden"), ProjectEntity(id: "p2", name: "Kitchen")]

    func projects(withIDs identifiers: [String]) -> [ProjectEntity] { projects.filter { identifiers.contains($0.id) } }
    func allProjects() -> [ProjectEntity] { projects }
}

func generateEntries(for project: ProjectEntity?) async -> [SimpleEntry] {
    [SimpleEntry(date: Date(), project: project)]
}

extension Provider {
    func placeholder(in context: Context) -> SimpleEntry { SimpleEntry(date: Date(), project: nil) }

    func snapshot(for configuration: SelectProjectIntent, in context: Context) async -> SimpleEntry {
        SimpleEntry(date: Date(), project: configuration.project)
    }
}

struct MyWidgetEntryView: View {
    var entry: SimpleEntry
    var body: some View { MyWidgetView(entry: entry) }
}

struct IncrementIntent: AppIntent {
    static var title: LocalizedStringResource = "Increment"
    func perform() async throws -> some IntentResult { .result() }
}

struct RefreshIntent: AppIntent {
    static var title: LocalizedStringResource = "Refresh"
    func perform() async throws -> some IntentResult { .result() }
}

struct PauseIntent: AppIntent {
    static var title: LocalizedStringResource = "Pause"
    func perform() async throws -> some IntentResult { .result() }
}

struct StopIntent: AppIntent {
    static var title: LocalizedStringResource = "Stop"
    func perform() async throws -> some IntentResult { .result() }
}

struct MyIntent: AppIntent {
    static var title: LocalizedStringResource = "Action"
    func perform() async throws -> some IntentResult { .result() }
}

/// The query the seed writes for projects; the seed's entity never names it (`defaultQuery`).
extension ProjectEntity {
    static var defaultQuery = ProjectQuery()
}

/// The fixture's widget, for a test to serve.
public enum AxiomSeed {
    public static func server() throws -> ExtensionServer { try ExtensionServer(widget: MyConfigurableWidget()) }
}
