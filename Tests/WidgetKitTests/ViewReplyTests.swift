import Foundation
import SwiftUI
import Testing
import WidgetHostProtocol
import WidgetKit

/// A widget whose content closure returns a view: the SDK sends each entry's archive
/// (protocol version 2), rendered for the request's family and environment.
struct GreetingEntry: TimelineEntry, Codable {
    let date: Date
    let name: String
}

struct GreetingProvider: TimelineProvider {
    func placeholder(in context: Context) -> GreetingEntry { GreetingEntry(date: Date(timeIntervalSince1970: 0), name: "Sample") }
    func getSnapshot(in context: Context, completion: @escaping @Sendable (GreetingEntry) -> Void) {
        completion(placeholder(in: context))
    }
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<GreetingEntry>) -> Void) {
        completion(Timeline(entries: [GreetingEntry(date: Date(timeIntervalSince1970: 60), name: "Ada")], policy: .never))
    }
}

struct GreetingView: View {
    let entry: GreetingEntry
    @Environment(\.widgetFamily) var family
    @Environment(\.colorScheme) var colorScheme

    var body: some View {
        Text("Hello, \(entry.name) (\(family.rawValue), \(colorScheme == .dark ? "dark" : "light"))")
            .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct GreetingWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Greeting", provider: GreetingProvider()) { entry in
            GreetingView(entry: entry)
        }
        .supportedFamilies([.systemSmall, .accessoryRectangular])
    }
}

@Suite("View archives on the extension channel")
struct ViewReplyTests {
    let channel = Channel(try! ExtensionServer(widget: GreetingWidget()))

    func texts(_ entry: TimelineEntryPayload) -> [String] {
        guard case .text(let runs)? = entry.view?.root.content else { return [] }
        return runs.compactMap { if case .string(let text) = $0.content { text } else { nil } }
    }

    @Test("Each timeline entry carries its view for the requested family, and the entry as content")
    func timelineEntries() async throws {
        let timeline = try await channel.result(
            "timeline/get", ["kind": "Greeting", "family": "accessoryRectangular", "widgetId": "w1", "now": "2026-02-15T08:00:00Z"],
            as: TimelinePayload.self)
        let entry = try #require(timeline.entries.first)
        #expect(texts(entry) == ["Hello, Ada (accessoryRectangular, light)"])
        #expect(entry.view?.family == .accessoryRectangular && entry.view?.version == ViewArchive.currentVersion)
        #expect(entry.content == ["date": "1970-01-01T00:01:00Z", "name": "Ada"])
    }

    @Test("The request's environment reaches the view and is recorded in the archive")
    func environment() async throws {
        let entry = try await channel.result(
            "snapshot/get",
            ["kind": "Greeting", "family": "systemSmall", "isPreview": true,
             "environment": ["colorScheme": "dark", "widgetRenderingMode": "accented", "displayScale": 2]],
            as: TimelineEntryPayload.self)
        #expect(texts(entry) == ["Hello, Sample (systemSmall, dark)"])
        #expect(entry.view?.environment == ViewEnvironment(colorScheme: .dark, widgetRenderingMode: .accented, displayScale: 2))
    }

    @Test("The placeholder's view is archived redacted")
    func placeholder() async throws {
        let entry = try await channel.result("placeholder/get", ["kind": "Greeting", "family": "systemSmall"], as: TimelineEntryPayload.self)
        #expect(entry.view?.root.modifiers.last == .redacted("placeholder"))
    }

    @Test("An environment that is not an object is -32602 saying what it should be; unknown values fall back")
    func badEnvironment() async throws {
        let error = try await channel.error("snapshot/get", ["kind": "Greeting", "family": "systemSmall", "environment": "dark"])
        #expect(error.code == -32602)
        #expect(error.message.contains("\"environment\" must be an object such as {\"colorScheme\": \"dark\""))
        let lenient = try await channel.result(
            "snapshot/get", ["kind": "Greeting", "family": "systemSmall", "environment": ["colorScheme": "sepia", "displayScale": 99]],
            as: TimelineEntryPayload.self)
        #expect(lenient.view?.environment.colorScheme == .light && lenient.view?.environment.displayScale == 4)
    }
}
