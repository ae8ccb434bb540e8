import AppIntents
import SwiftUI
import WidgetHostProtocol

/// One widget kind with its provider and content type erased: what `initialize` lists,
/// and closures that answer `placeholder/get`, `snapshot/get`, `timeline/get` and (for a
/// configurable kind) `intent/options` with wire payloads. The server deals only in these,
/// so it needs no generics.
struct WidgetDefinition: Sendable {
    typealias Reply<Payload> = @Sendable (Result<Payload, any Error>) -> Void

    var kind: String
    var displayName: String
    var description: String
    var supportedFamilies: [WidgetFamily]
    /// A configurable kind's intent (`AppIntentConfiguration`); nil for a static one.
    let intent: IntentSchema?

    let placeholder: @Sendable (TimelineProviderContext) throws -> TimelineEntryPayload
    /// The request's context and the widget's configuration (empty for a static kind).
    let snapshot: @Sendable (TimelineProviderContext, IntentValues, @escaping Reply<TimelineEntryPayload>) -> Void
    let timeline: @Sendable (TimelineProviderContext, IntentValues, @escaping Reply<TimelinePayload>) -> Void
    /// `intent/options` for one parameter of the kind's intent; nil for a static kind.
    let options: (@Sendable (String) async throws -> IntentOptionsResult)?

    var descriptor: WidgetDescriptor {
        WidgetDescriptor(
            kind: kind, displayName: displayName, description: description, supportedFamilies: supportedFamilies,
            intent: intent)
    }

    init<Provider: TimelineProvider, Content: Encodable & SendableMetatype>(
        kind: String, provider: Provider, content: @escaping @Sendable (Provider.Entry) -> Content
    ) {
        self.init(kind: kind, provider: provider, payload: Self.contentPayload(kind: kind, content))
    }

    /// A widget whose content closure returns a view: each entry carries its view's archive
    /// for the request's family and environment, and its own encoding as `content` when the
    /// entry type is `Encodable` (null otherwise).
    init<Provider: TimelineProvider, Content: View>(
        kind: String, provider: Provider, view: @escaping @Sendable (Provider.Entry) -> Content
    ) {
        self.init(kind: kind, provider: provider, payload: Self.viewPayload(view))
    }

    /// A configurable widget (`AppIntentConfiguration`): the intent is rebuilt from the
    /// request's configuration before the provider is asked. Its title and description name
    /// the kind in the gallery unless `.configurationDisplayName`/`.description` say otherwise.
    init<Provider: AppIntentTimelineProvider, Content: View>(
        kind: String, intentProvider provider: Provider, view: @escaping @Sendable (Provider.Entry) -> Content
    ) {
        typealias Intent = Provider.Intent
        let payload = Self.viewPayload(view)
        self.kind = kind
        displayName = Intent.title.defaultValue
        description = Intent.description?.descriptionText.defaultValue ?? ""
        supportedFamilies = Self.defaultFamilies
        intent = _IntentRuntime.schema(Intent.self)

        placeholder = { context in try payload(provider.placeholder(in: context), context, true) }
        snapshot = { context, configuration, reply in
            Task(executorPreference: ChannelExecutor.preferred) {
                do {
                    let intent = try await Self.intent(Intent.self, configuration)
                    let entry = await provider.snapshot(for: intent, in: context)
                    reply(Result { try payload(entry, context, false) })
                } catch {
                    reply(.failure(error))
                }
            }
        }
        timeline = { context, configuration, reply in
            Task(executorPreference: ChannelExecutor.preferred) {
                do {
                    let intent = try await Self.intent(Intent.self, configuration)
                    let timeline = await provider.timeline(for: intent, in: context)
                    reply(Result { try Self.timelinePayload(timeline, context, payload) })
                } catch {
                    reply(.failure(error))
                }
            }
        }
        options = { parameter in try await _IntentRuntime.options(Intent.self, parameter: parameter) }
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
        self.supportedFamilies = Self.defaultFamilies
        intent = nil
        options = nil

        placeholder = { context in try payload(provider.placeholder(in: context), context, true) }
        snapshot = { context, _, reply in
            provider.getSnapshot(in: context) { entry in reply(Result { try payload(entry, context, false) }) }
        }
        timeline = { context, _, reply in
            provider.getTimeline(in: context) { timeline in
                reply(Result { try Self.timelinePayload(timeline, context, payload) })
            }
        }
    }

    private static let defaultFamilies: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge]

    private static func timelinePayload<Entry: TimelineEntry>(
        _ timeline: Timeline<Entry>, _ context: TimelineProviderContext,
        _ payload: (Entry, TimelineProviderContext, Bool) throws -> TimelineEntryPayload
    ) throws -> TimelinePayload {
        TimelinePayload(entries: try timeline.entries.map { try payload($0, context, false) }, policy: timeline.policy.wire)
    }

    private static func viewPayload<Entry: TimelineEntry, Content: View>(
        _ view: @escaping @Sendable (Entry) -> Content
    ) -> @Sendable (Entry, TimelineProviderContext, Bool) throws -> TimelineEntryPayload {
        { entry, context, isPlaceholder in
            TimelineEntryPayload(
                date: entry.date, relevance: entry.relevance?.payload, content: EntryContent.of(entry),
                view: EntryArchive.make(view(entry), context: context, isPlaceholder: isPlaceholder))
        }
    }

    private static func contentPayload<Entry: TimelineEntry, Content: Encodable & SendableMetatype>(
        kind: String, _ content: @escaping @Sendable (Entry) -> Content
    ) -> @Sendable (Entry, TimelineProviderContext, Bool) throws -> TimelineEntryPayload {
        { entry, _, _ in
            do {
                return TimelineEntryPayload(
                    date: entry.date, relevance: entry.relevance?.payload, content: try JSONValue(encoding: content(entry)))
            } catch {
                throw ContentEncodingError(kind: kind, entryDate: entry.date, underlying: error)
            }
        }
    }

    /// The widget's intent with its configuration's values; a value that does not fit is the
    /// host's mistake (it validates configurations against the schema), answered -32602.
    private static func intent<Intent: WidgetConfigurationIntent>(
        _ type: Intent.Type, _ configuration: IntentValues
    ) async throws -> Intent {
        do {
            return try await _IntentRuntime.make(type, values: configuration)
        } catch {
            throw JSONRPCError.invalidParams("the configuration does not fit \(Intent.self): \(error)")
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
