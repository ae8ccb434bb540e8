import Foundation
import WidgetKit

/// Content that shows what the provider was told, so tests can check the context.
struct EchoEntry: TimelineEntry, Encodable {
    let date: Date
    let family: String
    let isPreview: Bool
    let width: Double
    let height: Double
    var relevance: TimelineEntryRelevance? = nil

    init(date: Date, context: TimelineProviderContext, relevance: TimelineEntryRelevance? = nil) {
        self.date = date
        family = context.family.rawValue
        isPreview = context.isPreview
        width = Double(context.displaySize.width)
        height = Double(context.displaySize.height)
        self.relevance = relevance
    }

    private enum CodingKeys: String, CodingKey { case family, isPreview, width, height }
}

let referenceDate = Date(timeIntervalSince1970: 1_771_113_600)  // 2026-02-15T00:00:00Z

/// Written only with `async`: no completion handlers at all.
struct AsyncOnlyProvider: TimelineProvider {
    func placeholder(in context: Context) -> EchoEntry { EchoEntry(date: referenceDate, context: context) }

    func snapshot(in context: Context) async -> EchoEntry {
        await Task.yield()
        return EchoEntry(date: referenceDate, context: context)
    }

    func timeline(in context: Context) async -> Timeline<EchoEntry> {
        try? await Task.sleep(for: .milliseconds(1))
        let entries = (0..<3).map { hour in
            EchoEntry(
                date: referenceDate.addingTimeInterval(Double(hour) * 3600), context: context,
                relevance: hour == 0 ? TimelineEntryRelevance(score: 10, duration: 1800) : TimelineEntryRelevance(score: 1))
        }
        return Timeline(entries: entries, policy: .atEnd)
    }
}

/// Finishes on the main queue and on the main actor, as providers using SwiftData's
/// `mainContext` do.
struct MainThreadProvider: TimelineProvider {
    func placeholder(in context: Context) -> EchoEntry { EchoEntry(date: referenceDate, context: context) }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EchoEntry) -> Void) {
        DispatchQueue.main.async { completion(EchoEntry(date: referenceDate, context: context)) }
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EchoEntry>) -> Void) {
        Task { @MainActor in
            completion(Timeline(entries: [EchoEntry(date: referenceDate, context: context)], policy: .never))
        }
    }
}

/// Calls each completion handler twice; only the first answer may reach the host.
struct TwiceProvider: TimelineProvider {
    func placeholder(in context: Context) -> EchoEntry { EchoEntry(date: referenceDate, context: context) }

    func getSnapshot(in context: Context, completion: @escaping (EchoEntry) -> Void) {
        completion(EchoEntry(date: referenceDate, context: context))
        completion(EchoEntry(date: referenceDate.addingTimeInterval(60), context: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<EchoEntry>) -> Void) {
        completion(Timeline(entries: [EchoEntry(date: referenceDate, context: context)], policy: .never))
        completion(Timeline(entries: [], policy: .atEnd))
    }
}

/// Implements neither member of a pair: a mistake the SDK must name instead of looping.
struct ForgetfulProvider: TimelineProvider {
    func placeholder(in context: Context) -> EchoEntry { EchoEntry(date: referenceDate, context: context) }
}

/// The test providers, each served as a widget whose kind is the provider's name.
protocol EchoProvider: TimelineProvider where Entry == EchoEntry {
    init()
}

extension AsyncOnlyProvider: EchoProvider {}
extension MainThreadProvider: EchoProvider {}
extension TwiceProvider: EchoProvider {}
extension ForgetfulProvider: EchoProvider {}

struct EchoWidget<Provider: EchoProvider>: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "\(Provider.self)", provider: Provider()) { entry in entry }
            .supportedFamilies(WidgetFamily.allCases)
    }
}

/// A widget written with no modifiers at all: Apple's defaults apply.
struct PlainWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Plain", provider: BirthdayTimelineProvider()) { entry in entry.names }
    }
}

/// Content JSON cannot hold.
struct NaNWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "NaN", provider: BirthdayTimelineProvider()) { _ in ["ratio": Double.nan] }
    }
}
