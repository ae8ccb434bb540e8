// What seeds/001's renderer refers to but the seed does not show (written for the tests):
// its model (`WidgetConfig`, `LayoutNode` with the three node types the snippet handles),
// `resolve(_:with:)` for `{{placeholders}}`, and the `widgetBackground` modifier.
import SwiftUI
import WidgetKit

struct WidgetConfig {
    var layout: LayoutNode
    var background: Color?
}

struct LayoutNode: Identifiable {
    enum NodeType { case vStack, text, sfSymbol }

    let id = UUID()
    var type: NodeType
    var alignment: HorizontalAlignment = .leading
    var spacing: CGFloat? = 8
    var children: [LayoutNode] = []
    var content = ""
    var name = ""
    var size: CGFloat = 24
    var swiftUIFont: Font? = nil
    var swiftUIColor: Color? = nil
}

func resolve(_ template: String, with dataContext: [String: Any]) -> String {
    var text = template
    for (key, value) in dataContext { text = text.replacingOccurrences(of: "{{\(key)}}", with: "\(value)") }
    return text
}

extension View {
    func widgetBackground(_ color: Color?) -> some View {
        containerBackground(for: .widget) { color ?? Color.clear }
    }
}
