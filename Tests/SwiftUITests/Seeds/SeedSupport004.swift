// What seeds/004's snippets refer to (written for the tests): an entry that knows its
// family, a provider, the family views, and the intent its button runs.
import AppIntents
import SwiftUI
import WidgetKit

struct RefreshIntent: AppIntent {
    static let title: LocalizedStringResource = "Refresh"
    func perform() async throws -> some IntentResult { .result() }
}

struct SimpleEntry: TimelineEntry {
    let date: Date
    let family: WidgetFamily
    let status: String
    let value: Int
}

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> SimpleEntry {
        SimpleEntry(date: Date(), family: context.family, status: "Ready", value: 3)
    }

    func getSnapshot(in context: Context, completion: @escaping (SimpleEntry) -> ()) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> ()) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .atEnd))
    }
}

struct AxiomSmallWidgetView: View {
    let entry: SimpleEntry
    var body: some View { MyWidgetView(entry: entry) }
}

struct AxiomMediumWidgetView: View {
    let entry: SimpleEntry
    var body: some View { HStack { MyWidgetView(entry: entry); CounterView(entry: entry) } }
}

struct AxiomCircularWidgetView: View {
    let entry: SimpleEntry
    var body: some View { CounterView(entry: entry) }
}

struct AxiomRectangularWidgetView: View {
    let entry: SimpleEntry
    var body: some View { Text(entry.status) }
}

struct LegacyWidgetView: View {
    let entry: SimpleEntry
    var body: some View { Text("Legacy") }
}
