import Foundation

/// A modifier applied to a view node. Text-wide ones (`font`, `foregroundStyle`, `lineLimit`,
/// …) apply to every text inside, as SwiftUI's environment does. An unknown modifier is
/// ignored when displayed and reported.
public enum ViewModifierNode: Sendable, Hashable, Codable {
    case padding(top: Double, leading: Double, bottom: Double, trailing: Double)
    case frame(ArchiveFrame)
    /// nil resets to the default font.
    case font(ArchiveFont?)
    case fontWeight(String?)
    case foregroundStyle(ArchiveStyle)
    /// `background(_:)`, `background(_:in:)`, `background(alignment:content:)`.
    case background(style: ArchiveStyle?, shape: ArchiveShape?, view: ViewNode?, alignment: String)
    case overlay(view: ViewNode, alignment: String)
    /// `clipShape(_:)`, and `cornerRadius(_:)` as a rounded rectangle.
    case clipShape(ArchiveShape)
    case lineLimit(Int?)
    case minimumScaleFactor(Double)
    /// `leading`, `center`, `trailing`.
    case multilineTextAlignment(String)
    case opacity(Double)
    /// `containerBackground(_:for: .widget)` and `containerBackground(for:alignment:content:)`.
    case containerBackground(style: ArchiveStyle?, view: ViewNode?, alignment: String)
    case widgetURL(String)
    case widgetAccentable(Bool)
    /// `fullColor`, `accented`, `desaturated`, `accentedDesaturated` (images).
    case widgetAccentedRenderingMode(String)
    case privacySensitive(Bool)
    /// `placeholder`, `privacy`, `invalidated`; nil: `unredacted()`.
    case redacted(String?)
    case invalidatableContent(Bool)
    /// `numericText`, `opacity`, `interpolate`, `identity`: no effect on a still frame.
    case contentTransition(String)
    case tint(ArchiveStyle)
    /// `fit` or `fill`, with an optional width/height ratio (`scaledToFit()`, `aspectRatio`).
    case aspectRatio(Double?, contentMode: String)
    /// `activityBackgroundTint(_:)`: a Live Activity's Lock Screen background; nil: the system's.
    case activityBackgroundTint(ArchiveColor?)
    /// `activitySystemActionForegroundColor(_:)`: the text of the system's action button
    /// beside a Live Activity on the Lock Screen; nil: the system's.
    case activitySystemActionForegroundColor(ArchiveColor?)
    case unknown(type: String)

    /// The view a modifier carries (a background's, an overlay's), if any.
    public var view: ViewNode? {
        switch self {
        case .background(_, _, let view, _), .containerBackground(_, let view, _): view
        case .overlay(let view, _): view
        default: nil
        }
    }

    public var type: String {
        switch self {
        case .padding: "padding"
        case .frame: "frame"
        case .font: "font"
        case .fontWeight: "fontWeight"
        case .foregroundStyle: "foregroundStyle"
        case .background: "background"
        case .overlay: "overlay"
        case .clipShape: "clipShape"
        case .lineLimit: "lineLimit"
        case .minimumScaleFactor: "minimumScaleFactor"
        case .multilineTextAlignment: "multilineTextAlignment"
        case .opacity: "opacity"
        case .containerBackground: "containerBackground"
        case .widgetURL: "widgetURL"
        case .widgetAccentable: "widgetAccentable"
        case .widgetAccentedRenderingMode: "widgetAccentedRenderingMode"
        case .privacySensitive: "privacySensitive"
        case .redacted: "redacted"
        case .invalidatableContent: "invalidatableContent"
        case .contentTransition: "contentTransition"
        case .tint: "tint"
        case .aspectRatio: "aspectRatio"
        case .activityBackgroundTint: "activityBackgroundTint"
        case .activitySystemActionForegroundColor: "activitySystemActionForegroundColor"
        case .unknown(let type): type
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type, top, leading, bottom, trailing, frame, font, weight, style, shape, view, alignment, limit, factor,
            opacity, url, value, mode, reason, transition, ratio, contentMode, color
    }

    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            self = .unknown(type: "(not an object)")
            return
        }
        let type = container.lenient(String.self, .type) ?? "(missing type)"
        self = Self.decode(type, container) ?? .unknown(type: type)
    }

    private static func decode(_ type: String, _ container: KeyedDecodingContainer<CodingKeys>) -> ViewModifierNode? {
        let alignment = container.lenient(String.self, .alignment) ?? "center"
        let flag = container.lenient(Bool.self, .value) ?? true
        switch type {
        case "padding":
            func inset(_ key: CodingKeys) -> Double { container.number(key).map { max(0, $0) } ?? 0 }
            return .padding(top: inset(.top), leading: inset(.leading), bottom: inset(.bottom), trailing: inset(.trailing))
        case "frame": return container.lenient(ArchiveFrame.self, .frame).map(ViewModifierNode.frame)
        case "font": return .font(container.lenient(ArchiveFont.self, .font))
        case "fontWeight": return .fontWeight(container.lenient(String.self, .weight))
        case "foregroundStyle": return container.lenient(ArchiveStyle.self, .style).map(ViewModifierNode.foregroundStyle)
        case "background":
            return .background(
                style: container.lenient(ArchiveStyle.self, .style), shape: container.lenient(ArchiveShape.self, .shape),
                view: container.lenient(ViewNode.self, .view), alignment: alignment)
        case "overlay":
            return container.lenient(ViewNode.self, .view).map { .overlay(view: $0, alignment: alignment) }
        case "clipShape": return container.lenient(ArchiveShape.self, .shape).map(ViewModifierNode.clipShape)
        case "lineLimit": return .lineLimit(container.lenient(Int.self, .limit).map { max(1, $0) })
        case "minimumScaleFactor": return container.number(.factor).map { .minimumScaleFactor(min(1, max(0.01, $0))) }
        case "multilineTextAlignment": return .multilineTextAlignment(alignment)
        case "opacity": return container.number(.opacity).map { .opacity(min(1, max(0, $0))) }
        case "containerBackground":
            return .containerBackground(
                style: container.lenient(ArchiveStyle.self, .style), view: container.lenient(ViewNode.self, .view),
                alignment: alignment)
        case "widgetURL": return container.lenient(String.self, .url).map(ViewModifierNode.widgetURL)
        case "widgetAccentable": return .widgetAccentable(flag)
        case "widgetAccentedRenderingMode":
            return .widgetAccentedRenderingMode(container.lenient(String.self, .mode) ?? "fullColor")
        case "privacySensitive": return .privacySensitive(flag)
        case "redacted": return .redacted(container.lenient(String.self, .reason))
        case "invalidatableContent": return .invalidatableContent(flag)
        case "contentTransition": return .contentTransition(container.lenient(String.self, .transition) ?? "identity")
        case "tint": return container.lenient(ArchiveStyle.self, .style).map(ViewModifierNode.tint)
        case "aspectRatio":
            return .aspectRatio(
                container.number(.ratio).flatMap { $0 > 0 ? $0 : nil },
                contentMode: container.lenient(String.self, .contentMode) ?? "fit")
        case "activityBackgroundTint": return .activityBackgroundTint(ArchiveColor.optional(container, .color))
        case "activitySystemActionForegroundColor":
            return .activitySystemActionForegroundColor(ArchiveColor.optional(container, .color))
        default: return nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .padding(let top, let leading, let bottom, let trailing):
            try container.encode(top, forKey: .top)
            try container.encode(leading, forKey: .leading)
            try container.encode(bottom, forKey: .bottom)
            try container.encode(trailing, forKey: .trailing)
        case .frame(let frame): try container.encode(frame, forKey: .frame)
        case .font(let font): try container.encodeIfPresent(font, forKey: .font)
        case .fontWeight(let weight): try container.encodeIfPresent(weight, forKey: .weight)
        case .foregroundStyle(let style), .tint(let style): try container.encode(style, forKey: .style)
        case .background(let style, let shape, let view, let alignment):
            try container.encodeIfPresent(style, forKey: .style)
            try container.encodeIfPresent(shape, forKey: .shape)
            try container.encodeIfPresent(view, forKey: .view)
            try container.encode(alignment, forKey: .alignment)
        case .overlay(let view, let alignment):
            try container.encode(view, forKey: .view)
            try container.encode(alignment, forKey: .alignment)
        case .clipShape(let shape): try container.encode(shape, forKey: .shape)
        case .lineLimit(let limit): try container.encodeIfPresent(limit, forKey: .limit)
        case .minimumScaleFactor(let factor): try container.encode(factor, forKey: .factor)
        case .multilineTextAlignment(let alignment): try container.encode(alignment, forKey: .alignment)
        case .opacity(let opacity): try container.encode(opacity, forKey: .opacity)
        case .containerBackground(let style, let view, let alignment):
            try container.encodeIfPresent(style, forKey: .style)
            try container.encodeIfPresent(view, forKey: .view)
            try container.encode(alignment, forKey: .alignment)
        case .widgetURL(let url): try container.encode(url, forKey: .url)
        case .widgetAccentable(let flag), .privacySensitive(let flag), .invalidatableContent(let flag):
            try container.encode(flag, forKey: .value)
        case .widgetAccentedRenderingMode(let mode): try container.encode(mode, forKey: .mode)
        case .redacted(let reason): try container.encodeIfPresent(reason, forKey: .reason)
        case .contentTransition(let transition): try container.encode(transition, forKey: .transition)
        case .aspectRatio(let ratio, let contentMode):
            try container.encodeIfPresent(ratio, forKey: .ratio)
            try container.encode(contentMode, forKey: .contentMode)
        case .activityBackgroundTint(let color), .activitySystemActionForegroundColor(let color):
            try container.encodeIfPresent(color, forKey: .color)
        case .unknown: break
        }
    }
}

/// `frame(width:height:alignment:)` and `frame(minWidth:idealWidth:maxWidth:…)`.
public struct ArchiveFrame: Sendable, Hashable, Codable {
    public var width: Double?
    public var height: Double?
    public var minWidth: Double?
    public var maxWidth: ArchiveLength?
    public var minHeight: Double?
    public var maxHeight: ArchiveLength?
    public var alignment: String

    public init(
        width: Double? = nil, height: Double? = nil, minWidth: Double? = nil, maxWidth: ArchiveLength? = nil,
        minHeight: Double? = nil, maxHeight: ArchiveLength? = nil, alignment: String = "center"
    ) {
        self.width = width
        self.height = height
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.maxHeight = maxHeight
        self.alignment = alignment
    }

    private enum CodingKeys: String, CodingKey { case width, height, minWidth, maxWidth, minHeight, maxHeight, alignment }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func length(_ key: CodingKeys) -> Double? { container.number(key).map { max(0, $0) } }
        width = length(.width)
        height = length(.height)
        minWidth = length(.minWidth)
        maxWidth = container.lenient(ArchiveLength.self, .maxWidth)
        minHeight = length(.minHeight)
        maxHeight = container.lenient(ArchiveLength.self, .maxHeight)
        alignment = container.lenient(String.self, .alignment) ?? "center"
    }
}
