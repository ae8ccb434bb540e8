// seeds/001 (Widgy), §4.1 "Core Design", verbatim: the JSON-driven renderer (the snippet
// shows no imports; a file of it needs these two).
import SwiftUI
import WidgetKit

struct WidgetRendererView: View {
    let config: WidgetConfig
    let dataContext: [String: Any] // for dynamic bindings
    @Environment(\.widgetFamily) var family

    var body: some View {
        NodeRenderer(node: config.layout, dataContext: dataContext)
            .widgetBackground(config.background)
    }
}

// Recursive node renderer
struct NodeRenderer: View {
    let node: LayoutNode
    let dataContext: [String: Any]

    var body: some View {
        switch node.type {
        case .vStack:
            VStack(alignment: node.alignment, spacing: node.spacing) {
                ForEach(node.children) { child in
                    NodeRenderer(node: child, dataContext: dataContext)
                }
            }
        case .text:
            Text(resolve(node.content, with: dataContext))
                .font(node.swiftUIFont)
                .foregroundColor(node.swiftUIColor)
        case .sfSymbol:
            Image(systemName: node.name)
                .resizable()
                .frame(width: node.size, height: node.size)
                .foregroundColor(node.swiftUIColor)
        // ... other node types
        }
    }
}
