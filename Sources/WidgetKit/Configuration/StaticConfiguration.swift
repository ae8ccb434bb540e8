/// A widget with no user-configurable options: a kind, a provider, and a content closure.
///
/// In WidgetKit the content closure returns a SwiftUI view. Here it returns any
/// `Encodable` value instead; that value, encoded, is the entry's `content` on the wire,
/// and the host (or a display client) renders it.
///
/// (`SendableMetatype` only says that `Content`'s `Encodable` conformance is not tied to
/// an actor, so the content can be encoded on the thread that writes the reply; every
/// plain struct or enum qualifies.)
public struct StaticConfiguration<Content: Encodable & SendableMetatype>: PrimitiveWidgetConfiguration {
    let definition: WidgetDefinition

    public init<Provider: TimelineProvider>(
        kind: String, provider: Provider, content: @escaping @Sendable (Provider.Entry) -> Content
    ) {
        definition = WidgetDefinition(kind: kind, provider: provider, content: content)
    }

    var definitions: [WidgetDefinition] { [definition] }
}
