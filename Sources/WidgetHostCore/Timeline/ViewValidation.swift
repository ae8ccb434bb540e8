import Foundation
import WidgetHostProtocol

/// What the host accepts of an entry's view archive (docs/rules.md, "Views"): at most
/// `max_view_nodes` nodes and `max_view_depth` levels, else the archive is refused and the
/// entry shows the widget's placeholder; node and modifier types this host does not know are
/// kept (they show as placeholders) and reported. The archive's size is bounded with the
/// reply's, by `max_timeline_bytes`. Only the host sets `rejected`.
public enum ViewValidation {
    /// Checks each entry's view; returns the entries as the host stores them, and what to report.
    public static func validate(
        _ entries: [TimelineEntryPayload], limits: ExtensionLimits
    ) -> (entries: [TimelineEntryPayload], notes: [TimelineValidation.Note]) {
        var notes: [TimelineValidation.Note] = []
        let checked = entries.map { entry in
            let (checkedEntry, entryNotes) = validate(entry, limits: limits)
            for note in entryNotes where !notes.contains(note) { notes.append(note) }
            return checkedEntry
        }
        return (checked, notes)
    }

    public static func validate(
        _ entry: TimelineEntryPayload, limits: ExtensionLimits
    ) -> (entry: TimelineEntryPayload, notes: [TimelineValidation.Note]) {
        guard var view = entry.view else { return (entry, []) }
        view.rejected = nil
        var entry = entry
        let shape = ViewTreeMeasure.measure(view.root, stoppingAfter: limits.maxViewNodes, depthLimit: limits.maxViewDepth)
        var notes: [TimelineValidation.Note] = []
        if shape.nodes > limits.maxViewNodes {
            view.rejected = "viewTooLarge"
            view.root = ViewNode(.empty)
            notes.append(
                .init(
                    code: "viewTooLarge", severity: .error,
                    message: "the view of the entry at \(RFC3339.format(entry.date)) has more than max_view_nodes = "
                        + "\(limits.maxViewNodes) nodes and was refused; the placeholder shows instead. "
                        + "Show fewer rows (prefix the ForEach's data) or simplify the view"))
        } else if shape.depth > limits.maxViewDepth {
            view.rejected = "viewTooDeep"
            view.root = ViewNode(.empty)
            notes.append(
                .init(
                    code: "viewTooDeep", severity: .error,
                    message: "the view of the entry at \(RFC3339.format(entry.date)) is nested more than max_view_depth = "
                        + "\(limits.maxViewDepth) levels deep and was refused; the placeholder shows instead. Flatten the stacks"))
        } else if !shape.unknown.isEmpty {
            let names = shape.unknown.sorted().prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            notes.append(
                .init(
                    code: "unknownViewNode", severity: .warning,
                    message: "the view has node or modifier types this host does not know (\(names)); they show as "
                        + "placeholders. Update the host, or use the views docs/protocol.md lists"))
        }
        if view.version > ViewArchive.currentVersion {
            notes.append(
                .init(
                    code: "newerViewArchive", severity: .info,
                    message: "the view archive is version \(view.version); this host reads version \(ViewArchive.currentVersion), "
                        + "so newer nodes show as placeholders"))
        }
        entry.view = view
        return (entry, notes)
    }
}

/// The size of a view tree, counted without recursion (an archive's depth is the extension's
/// choice) and without going further than the limits need.
struct ViewTreeMeasure {
    var nodes = 0
    var depth = 0
    var unknown: Set<String> = []

    static func measure(_ root: ViewNode, stoppingAfter maxNodes: Int, depthLimit: Int) -> ViewTreeMeasure {
        var shape = ViewTreeMeasure()
        var stack: [(node: ViewNode, depth: Int)] = [(root, 1)]
        while let (node, depth) = stack.popLast() {
            shape.nodes += 1
            shape.depth = max(shape.depth, depth)
            if shape.nodes > maxNodes || depth > depthLimit { break }
            if case .unknown(let type) = node.content { shape.unknown.insert(type) }
            for modifier in node.modifiers {
                if case .unknown(let type) = modifier { shape.unknown.insert(type) }
            }
            for child in node.childNodes { stack.append((child, depth + 1)) }
        }
        return shape
    }
}
