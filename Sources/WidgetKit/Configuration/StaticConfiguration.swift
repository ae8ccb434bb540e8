import SwiftUI

/// A widget with no user-configurable options: a kind, a provider, and a content closure
/// that returns the entry's view, as in WidgetKit. The SDK archives the view for the
/// requested family and environment, and the host displays the archive.
///
/// widgethost also accepts a content closure that returns an `Encodable` value instead: that
/// value, encoded, is the entry's `content` on the wire, for display clients that draw it
/// themselves (protocol version 1). (`SendableMetatype` only says that the value's
/// conformance is not tied to an actor, so it can be encoded on the thread that writes the
/// reply; every plain struct or enum qualifies.)
public struct StaticConfiguration<Content>: PrimitiveWidgetConfiguration {
    let definition: WidgetDefinition

    var definitions: [WidgetDefinition] { [definition] }
}

extension StaticConfiguration where Content: View {
    public init<Provider: TimelineProvider>(
        kind: String, provider: Provider, @ViewBuilder content: @escaping @Sendable (Provider.Entry) -> Content
    ) {
        definition = WidgetDefinition(kind: kind, provider: provider, view: content)
    }
}

extension StaticConfiguration where Content: Encodable & SendableMetatype {
    @_disfavoredOverload
    public init<Provider: TimelineProvider>(
        kind: String, provider: Provider, content: @escaping @Sendable (Provider.Entry) -> Content
    ) {
        definition = WidgetDefinition(kind: kind, provider: provider, content: content)
    }
}
