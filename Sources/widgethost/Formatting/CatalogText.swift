import WidgetHostProtocol

/// `widgethost extensions`: the catalog (the loaded extensions with their kinds), then the
/// bundles skipped with why.
enum CatalogText {
    static func text(_ result: ExtensionsResult) -> String {
        var sections: [String] = []
        if result.loaded.isEmpty {
            sections.append("No extensions loaded. Put NAME.appex bundles in a plugin directory (plugins.paths) and run `widgethost rescan`.")
        }
        for ext in result.loaded {
            var lines = ["\(ext.id)  \(ext.displayName)  (app \(ext.app))", "  \(ext.path)"]
            if !ext.appGroups.isEmpty { lines.append("  app groups: " + ext.appGroups.joined(separator: ", ")) }
            if let sandbox = ext.sandbox { lines.append("  sandbox: " + SandboxText.summary(sandbox)) }
            var table = Table(indent: "  ")
            for widget in ext.widgets {
                table.append([
                    widget.kind,
                    widget.supportedFamilies.map(\.rawValue).joined(separator: ", "),
                    widget.displayName,
                ])
            }
            if !ext.widgets.isEmpty { lines.append(table.rendered) }
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
