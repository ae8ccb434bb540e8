import SwiftUI
import WidgetHostProtocol

/// Turns an entry's view into its archive, as a device's extension does before handing the
/// entry to the system.
enum EntryArchive {
    static func make<V: View>(_ view: V, context: TimelineProviderContext, isPlaceholder: Bool) -> ViewArchive {
        let environment = context.viewEnvironment
        let values = EnvironmentValues(
            family: context.family, environment, redaction: isPlaceholder ? .placeholder : [])
        var root = _ViewArchiver.archive(view, environment: values)
        // The system draws a placeholder redacted; so does the host.
        if isPlaceholder { root.modifiers.append(.redacted("placeholder")) }
        return ViewArchive(family: context.family, environment: environment, root: root)
    }
}

/// An entry's own encoding, for `content`: what `widgethost status` shows beside the view.
enum EntryContent {
    static func of(_ entry: some TimelineEntry) -> JSONValue {
        guard let encodable = entry as? any Encodable else { return .null }
        return (try? JSONValue(encoding: encodable)) ?? .null
    }
}
