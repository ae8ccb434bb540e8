import Foundation
import SwiftUI
import WidgetKit

/// The widget's entry view: the user's design, or the empty or problem state.
public struct WidgyEntryView: View {
    let entry: WidgyEntry

    public init(entry: WidgyEntry) { self.entry = entry }

    public var body: some View {
        switch entry.state {
        case .widget(let config, let bound):
            WidgetRendererView(layout: bound.layout, background: config.background)
                .widgetURL(URL(string: "widgy://edit/\(config.widgetID)"))
        case .empty:
            MessageView(symbol: "square.and.pencil", text: WidgySummary.emptyMessage)
                .containerBackground(.fill.tertiary, for: .widget)
        case .problem(let message):
            MessageView(symbol: "exclamationmark.triangle", text: message)
                .containerBackground(.fill.tertiary, for: .widget)
        }
    }
}

/// seeds/001 §4.1 "Core Design": the entry point, the layout on its configured background.
struct WidgetRendererView: View {
    let layout: JSON
    let background: JSON?
    @Environment(\.widgetFamily) var family

    var body: some View {
        NodeRenderer(node: layout)
            .frame(maxWidth: .infinity, maxHeight: .infinity)
            .containerBackground(for: .widget) { BackgroundView(background: background) }
    }
}

/// seeds/001 §4.1: the recursive node renderer. The layout's data placeholders are bound
/// already (`BoundLayout`); an unknown node renders as nothing (§4.2 "Graceful degradation").
struct NodeRenderer: View {
    let node: JSON

    var body: some View {
        switch node.type {
        case "VStack":
            VStack(alignment: node.horizontalAlignment, spacing: node.number("spacing").map { CGFloat($0) }) {
                ForEach(node.children.indices, id: \.self) { index in
                    NodeRenderer(node: node.children[index])
                }
            }
        case "HStack":
            HStack(alignment: node.verticalAlignment, spacing: node.number("spacing").map { CGFloat($0) }) {
                ForEach(node.children.indices, id: \.self) { index in
                    NodeRenderer(node: node.children[index])
                }
            }
        case "ZStack":
            ZStack(alignment: node.alignment) {
                ForEach(node.children.indices, id: \.self) { index in
                    NodeRenderer(node: node.children[index])
                }
            }
        case "Text":
            Text(node.string("content") ?? "")
                .font(node.swiftUIFont)
                .fontWeight(node.swiftUIWeight)
                .foregroundColor(node.swiftUIColor)
                .lineLimit(node.number("lineLimit").map { Int($0) })
        case "SFSymbol":
            Image(systemName: node.string("name") ?? "questionmark")
                .resizable()
                .scaledToFit()
                .frame(width: CGFloat(node.number("size") ?? 20), height: CGFloat(node.number("size") ?? 20))
                .foregroundColor(node.swiftUIColor)
        case "Image":
            ImageNode(node: node)
        case "Spacer":
            Spacer(minLength: node.number("minLength").map { CGFloat($0) })
        case "Divider":
            if let color = node.swiftUIColor {
                Rectangle().fill(color).frame(height: CGFloat(node.number("thickness") ?? 1))
            } else {
                Divider()
            }
        case "Gauge":
            GaugeNode(node: node)
        case "Frame":
            NodeRenderer(node: node["child"] ?? BoundLayout.emptyNode)
                .frame(
                    width: node.number("width").map { CGFloat($0) }, height: node.number("height").map { CGFloat($0) },
                    alignment: node.alignment)
                .frame(
                    maxWidth: node.number("maxWidth").map { CGFloat($0) },
                    maxHeight: node.number("maxHeight").map { CGFloat($0) }, alignment: node.alignment)
        case "Padding":
            NodeRenderer(node: node["child"] ?? BoundLayout.emptyNode)
                .padding(node.edges, node.number("length").map { CGFloat($0) })
        default:
            EmptyView()
        }
    }
}

struct ImageNode: View {
    let node: JSON

    var body: some View {
        let source = node.string("source") ?? ""
        Group {
            if source.hasPrefix("asset:") {
                Image(String(source.dropFirst("asset:".count))).resizable()
            } else {
                // Remote images never load in a widget (seeds/004: AsyncImage does not work).
                Image(systemName: "photo")
            }
        }
        .aspectRatio(contentMode: node.string("contentMode") == "fill" ? .fill : .fit)
        .clipShape(RoundedRectangle(cornerRadius: CGFloat(node.number("cornerRadius") ?? 0)))
    }
}

struct GaugeNode: View {
    let node: JSON

    var body: some View {
        let low = node.number("min") ?? 0
        let high = max(node.number("max") ?? 1, low + .ulpOfOne)
        let value = min(max(node.number("value") ?? low, low), high)
        let gauge = Gauge(value: value, in: low...high) {
            Text(node.string("label") ?? "")
        }
        .tint(node.swiftUIColor ?? .accentColor)
        if node.string("style") == "circular" {
            gauge.gaugeStyle(.accessoryCircularCapacity)
        } else {
            gauge.gaugeStyle(.linearCapacity)
        }
    }
}

/// The config's background: a colour or a gradient, else the system's.
struct BackgroundView: View {
    let background: JSON?

    var body: some View {
        switch background?.string("type") {
        case "color":
            (background?.color("color") ?? Color.clear)
        case "gradient":
            LinearGradient(
                colors: background?.colors ?? [], startPoint: background?.unitPoint("startPoint") ?? .top,
                endPoint: background?.unitPoint("endPoint") ?? .bottom)
        default:
            Color.clear
        }
    }
}

struct MessageView: View {
    let symbol: String
    let text: String

    var body: some View {
        VStack(spacing: 6) {
            Image(systemName: symbol)
                .font(.title2)
                .foregroundStyle(.secondary)
            Text(text)
                .font(.caption)
                .multilineTextAlignment(.center)
                .foregroundStyle(.secondary)
        }
    }
}

/// The node's fields as SwiftUI values (seeds/001: `node.swiftUIFont`, `node.swiftUIColor`).
extension JSON {
    var type: String { string("type") ?? "" }

    var children: [JSON] {
        if case .array(let items)? = self["children"] { return items }
        return []
    }

    func string(_ key: String) -> String? {
        if case .string(let text)? = self[key] { return text }
        return nil
    }

    func number(_ key: String) -> Double? {
        if case .number(let value)? = self[key], value.isFinite { return value }
        return nil
    }

    var swiftUIFont: Font? {
        string("font").flatMap(Font.TextStyle.init(rawValue:)).map { Font.system($0) }
    }

    var swiftUIWeight: Font.Weight? {
        switch string("weight") {
        case "ultraLight": .ultraLight
        case "thin": .thin
        case "light": .light
        case "regular": .regular
        case "medium": .medium
        case "semibold": .semibold
        case "bold": .bold
        case "heavy": .heavy
        case "black": .black
        default: nil
        }
    }

    var swiftUIColor: Color? { color("color") }

    func color(_ key: String) -> Color? { string(key).flatMap(Self.hexColor) }

    var colors: [Color] {
        guard case .array(let items)? = self["colors"] else { return [] }
        return items.compactMap { if case .string(let hex) = $0 { Self.hexColor(hex) } else { nil } }
    }

    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`, as the validator accepts them.
    static func hexColor(_ text: String) -> Color? {
        var hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6 || hex.count == 8, let value = UInt64(hex, radix: 16) else { return nil }
        let rgba = hex.count == 6 ? value << 8 | 0xFF : value
        return Color(
            red: Double((rgba >> 24) & 0xFF) / 255, green: Double((rgba >> 16) & 0xFF) / 255,
            blue: Double((rgba >> 8) & 0xFF) / 255, opacity: Double(rgba & 0xFF) / 255)
    }

    var horizontalAlignment: HorizontalAlignment {
        switch string("alignment") {
        case "leading": .leading
        case "trailing": .trailing
        default: .center
        }
    }

    var verticalAlignment: VerticalAlignment {
        switch string("alignment") {
        case "top": .top
        case "bottom": .bottom
        case "firstTextBaseline": .firstTextBaseline
        case "lastTextBaseline": .lastTextBaseline
        default: .center
        }
    }

    var alignment: Alignment {
        switch string("alignment") {
        case "topLeading": .topLeading
        case "top": .top
        case "topTrailing": .topTrailing
        case "leading": .leading
        case "trailing": .trailing
        case "bottomLeading": .bottomLeading
        case "bottom": .bottom
        case "bottomTrailing": .bottomTrailing
        default: .center
        }
    }

    func unitPoint(_ key: String) -> UnitPoint? {
        switch string(key) {
        case "topLeading": .topLeading
        case "top": .top
        case "topTrailing": .topTrailing
        case "leading": .leading
        case "center": .center
        case "trailing": .trailing
        case "bottomLeading": .bottomLeading
        case "bottom": .bottom
        case "bottomTrailing": .bottomTrailing
        default: nil
        }
    }

    var edges: Edge.Set {
        switch string("edges") {
        case "horizontal": .horizontal
        case "vertical": .vertical
        case "top": .top
        case "bottom": .bottom
        case "leading": .leading
        case "trailing": .trailing
        default: .all
        }
    }
}
