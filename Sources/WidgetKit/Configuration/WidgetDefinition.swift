import SwiftUI
import WidgetHostProtocol

/// One widget kind with its provider and content type erased: what `initialize` lists,
/// and three closures that answer `placeholder/get`, `snapshot/get` and `timeline/get`
/// with wire payloads. The server deals only in these, so it needs no generics.
struct WidgetDefinition: Sendable {
    typealias Reply<Payload> = @Sendable (Result<Payload, any Error>) -> Void

    var kind: String
    var displayName: String
    var description: String
    var supportedFamilies: [WidgetFamily]

    let placeholder: @Sendable (TimelineProviderContext) throws -> TimelineEntryPayload
    let snapshot: @Sendable (TimelineProviderContext, @escaping Reply<TimelineEntryPayload>) -> Void
    let timeline: @Sendable (TimelineProviderContext, @escaping Reply<TimelinePayload>) -> Void

    var descriptor: WidgetDescriptor {
        WidgetDescriptor(
            kind: kind, displayName: displayName, description: description, supportedFamilies: supportedFamilies)
    }

    init<Provider: TimelineProvider, Content: Encodable & SendableMetatype>(
        kind: String, provider: Provider, content: @escaping @Sendable (Provider.Entry) -> Content
    ) {
        self.init(kind: kind, provider: provider) { entry, _, _ in
            do {
                return TimelineEntryPayload(
                    date: entry.date, relevance: entry.relevance?.payload, content: try JSONValue(encoding: content(entry)))
            } catch {
                throw ContentEncodingError(kind: kind, entryDate: entry.date, underlying: error)
            }
        }
    }

    /// A widget whose content closure returns a view: each entry carries its view's archive
    /// for the request's family and environment, and its own encoding as `content` when the
    /// entry type is `Encodable` (null otherwise).
    init<Provider: TimelineProvider, Content: View>(
        kind: String, provider: Provider, view: @escaping @Sendable (Provider.Entry) -> Content
    ) {
        self.init(kind: kind, provider: provider) { entry, context, isPlaceholder in
            TimelineEntryPayload(
                date: entry.date, relevance: entry.relevance?.payload, content: EntryContent.of(entry),
                view: EntryArchive.make(view(entry), context: context, isPlaceholder: isPlaceholder))
        }
    }

    /// `payload` turns an entry into its wire form, given the request's context and whether
    /// it is the placeholder.
    private init<Provider: TimelineProvider>(
        kind: String, provider: Provider,
        payload: @escaping @Sendable (Provider.Entry, TimelineProviderContext, Bool) throws -> TimelineEntryPayload
    ) {
        self.kind = kind
        // Apple's defaults: no name of its own, no description, the three home-screen sizes.
        self.displayName = kind
        self.description = ""
        self.supportedFamilies = [.systemSmall, .systemMedium, .systemLarge]

        placeholder = { context in try payload(provider.placeholder(in: context), context, true) }
        snapshot = { context, reply in
            provider.getSnapshot(in: context) { entry in reply(Result { try payload(entry, context, false) }) }
        }
        timeline = { context, reply in
            provider.getTimeline(in: context) { timeline in
                reply(
                    Result {
                        TimelinePayload(
                            entries: try timeline.entries.map { try payload($0, context, false) },
                            policy: timeline.policy.wire)
                    })
            }
        }
    }
}

/// The content closure returned something JSON cannot hold (a NaN, an infinite number, …).
struct ContentEncodingError: Error, CustomStringConvertible {
    let kind: String
    let entryDate: Date
    let underlying: any Error

    var description: String {
        "the content for \(kind)'s entry at \(RFC3339.format(entryDate)) cannot be encoded as JSON (\(underlying)); "
            + "make the value returned by the StaticConfiguration content closure plain Codable data"
    }
}
