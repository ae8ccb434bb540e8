import WidgetHostProtocol

/// `widgethost extensions`: the loaded bundles with their kinds, then the skipped ones with why.
enum CatalogText {
    static func text(_ result: ExtensionsResult) -> String {
        var sections: [String] = []
        if result.loaded.isEmpty {
            sections.append("No extensions loaded. Put NAME.appex bundles in a plugins path and run `widgethost rescan`.")
        }
        for bundle in result.loaded {
            var lines = ["\(bundle.id)  \(bundle.displayName)  (app \(bundle.app))", "  \(bundle.path)"]
            if !bundle.appGroups.isEmpty { lines.append("  app groups: " + bundle.appGroups.joined(separator: ", ")) }
            var table = Table(indent: "  ")
            for widget in bundle.widgets {
                table.append([
                    widget.kind,
                    widget.supportedFamilies.map(\.rawValue).joined(separator: ", "),
                    widget.displayName,
                ])
            }
            if !bundle.widgets.isEmpty { lines.append(table.rendered) }
            sections.append(lines.joined(separator: "\n"))
        }
        if !result.skipped.isEmpty {
            var lines = ["Skipped \(Text.plural(result.skipped.count, "bundle")):"]
            for bundle in result.skipped {
                lines.append("  \(bundle.path)")
                lines.append("    \(bundle.reason)")
            }
            sections.append(lines.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }
}
