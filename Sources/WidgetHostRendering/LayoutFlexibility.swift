import WidgetHostProtocol

/// Which axes a view grows along, as SwiftUI's layout decides: a Spacer along its stack, a
/// colour or shape both ways, `frame(maxWidth: .infinity)` horizontally; a stack grows
/// where one of its children does. The renderer turns this into flexbox growth, so that an
/// HTML page lays a widget out as the device would.
struct Flexibility: Sendable, Hashable {
    var horizontal: Bool
    var vertical: Bool

    static let none = Flexibility(horizontal: false, vertical: false)
    static let both = Flexibility(horizontal: true, vertical: true)

    static func | (lhs: Flexibility, rhs: Flexibility) -> Flexibility {
        Flexibility(horizontal: lhs.horizontal || rhs.horizontal, vertical: lhs.vertical || rhs.vertical)
    }
}

enum Axis: Sendable, Hashable {
    case vertical, horizontal, layered
}

enum Layout {
    /// The flexibility of a node with all its modifiers, inside a parent laid out along `axis`.
    static func flexibility(_ node: ViewNode, in axis: Axis?) -> Flexibility {
        var result = content(node.content, in: axis)
        for modifier in node.modifiers {
            if case .frame(let frame) = modifier {
                result = Flexibility(
                    horizontal: frame.maxWidth == .infinity || (frame.width == nil && frame.maxWidth == nil && result.horizontal),
                    vertical: frame.maxHeight == .infinity || (frame.height == nil && frame.maxHeight == nil && result.vertical))
            }
        }
        return result
    }

    private static func content(_ content: ViewNode.Content, in axis: Axis?) -> Flexibility {
        switch content {
        case .spacer:
            switch axis {
            case .vertical: return Flexibility(horizontal: false, vertical: true)
            case .horizontal: return Flexibility(horizontal: true, vertical: false)
            case .layered, nil: return .both
            }
        case .divider:
            return axis == .horizontal ? Flexibility(horizontal: false, vertical: true) : Flexibility(horizontal: true, vertical: false)
        case .fill, .shape, .accessoryWidgetBackground:
            return .both
        case .image(let image):
            return image.resizable ? .both : .none
        case .gauge(let gauge):
            switch gauge.style {
            case "accessoryCircular", "accessoryCircularCapacity": return .none
            default: return Flexibility(horizontal: true, vertical: false)
            }
        case .progress(let progress):
            return progress.style == "circular" ? .none : Flexibility(horizontal: true, vertical: false)
        case .vstack(_, _, let children):
            return children.reduce(.none) { $0 | flexibility($1, in: .vertical) }
        case .hstack(_, _, let children):
            return children.reduce(.none) { $0 | flexibility($1, in: .horizontal) }
        case .zstack(_, let children), .group(let children):
            return children.reduce(.none) { $0 | flexibility($1, in: .layered) }
        case .viewThatFits(_, let children):
            return children.first.map { flexibility($0, in: axis) } ?? .none
        case .link(_, let label):
            return flexibility(label, in: axis)
        case .button(let control), .toggle(let control):
            return flexibility(control.label, in: axis)
        case .label, .text, .empty, .unknown:
            return .none
        }
    }

    /// A rough size in points (text: 0.55 em a character, 1.25 em a line), for picking the
    /// `ViewThatFits` child that fits; deterministic, not a text layout engine.
    static func estimate(_ node: ViewNode, fontSize: Double) -> (width: Double, height: Double) {
        var size = fontSize
        for modifier in node.modifiers {
            if case .font(let font?) = modifier { size = Typography.pointSize(font, inherited: size) }
        }
        var result: (width: Double, height: Double)
        switch node.content {
        case .text(let runs):
            var characters = 0
            for run in runs {
                switch run.content {
                case .string(let text): characters += text.count
                case .symbol: characters += 2
                case .date, .timer: characters += 8
                }
            }
            result = (Double(characters) * 0.55 * size, 1.25 * size)
        case .vstack(_, let spacing, let children):
            let sizes = children.map { estimate($0, fontSize: size) }
            result = (
                sizes.map(\.width).max() ?? 0,
                sizes.map(\.height).reduce(0, +) + Double(max(0, sizes.count - 1)) * (spacing ?? 8)
            )
        case .hstack(_, let spacing, let children):
            let sizes = children.map { estimate($0, fontSize: size) }
            result = (
                sizes.map(\.width).reduce(0, +) + Double(max(0, sizes.count - 1)) * (spacing ?? 8),
                sizes.map(\.height).max() ?? 0
            )
        case .zstack(_, let children), .group(let children), .viewThatFits(_, let children):
            let sizes = children.map { estimate($0, fontSize: size) }
            result = (sizes.map(\.width).max() ?? 0, sizes.map(\.height).max() ?? 0)
        case .label(let title, let icon, _):
            let t = estimate(title, fontSize: size)
            let i = estimate(icon, fontSize: size)
            result = (t.width + i.width + 6, max(t.height, i.height))
        case .image: result = (size, size)
        case .link(_, let label): result = estimate(label, fontSize: size)
        case .button(let control), .toggle(let control): result = estimate(control.label, fontSize: size)
        case .gauge, .progress: result = (40, 40)
        case .empty, .spacer, .divider, .fill, .shape, .accessoryWidgetBackground, .unknown: result = (0, 0)
        }
        for modifier in node.modifiers {
            switch modifier {
            case .padding(let top, let leading, let bottom, let trailing):
                result = (result.width + leading + trailing, result.height + top + bottom)
            case .frame(let frame):
                result = (frame.width ?? max(result.width, frame.minWidth ?? 0), frame.height ?? max(result.height, frame.minHeight ?? 0))
            default: break
            }
        }
        return result
    }
}
