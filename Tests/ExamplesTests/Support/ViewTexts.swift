import Foundation
import WidgetHostProtocol

extension JSONValue {
    /// An entry's `view`, decoded as the host decodes it.
    var viewArchive: ViewArchive? {
        guard let view = self["view"] else { return nil }
        return try? view.decode(as: ViewArchive.self)
    }

    /// Every text the entry's view shows, depth first (symbols as `[name]`, live dates as `<style>`).
    var viewTexts: [String] { viewArchive?.root.texts ?? [] }
}

extension ViewNode {
    var texts: [String] {
        var result: [String] = []
        if case .text(let runs) = content {
            result.append(
                runs.map { run in
                    switch run.content {
                    case .string(let text): text
                    case .symbol(let name): "[\(name)]"
                    case .date(_, let style): "<\(style.rawValue)>"
                    case .timer: "<timer>"
                    }
                }.joined())
        }
        for child in childNodes { result += child.texts }
        return result
    }

    /// Every node of the tree, depth first.
    var allNodes: [ViewNode] { [self] + childNodes.flatMap(\.allNodes) }

    /// Every modifier of the tree.
    var allModifiers: [ViewModifierNode] { allNodes.flatMap(\.modifiers) }
}
