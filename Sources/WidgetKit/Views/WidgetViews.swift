import SwiftUI
import WidgetHostProtocol

/// The standard background of a lock screen widget: a translucent disc or rounded
/// rectangle that adapts to the wallpaper.
public struct AccessoryWidgetBackground: _PrimitiveView {
    public init() {}
    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.accessoryWidgetBackground) }
}

extension ContainerBackgroundPlacement {
    /// The widget's background: `.containerBackground(.fill.tertiary, for: .widget)`.
    public static let widget = ContainerBackgroundPlacement(_name: "widget")
}

extension View {
    /// The URL the containing app opens when the user taps the widget.
    public func widgetURL(_ url: URL?) -> some View {
        _modifier { _ in url.map { .widgetURL($0.absoluteString) } }
    }

    /// In accented mode, this view takes the accent colour; the rest is drawn in the primary tint.
    public func widgetAccentable(_ accentable: Bool = true) -> some View { _modifier(.widgetAccentable(accentable)) }
}

/// How an image is drawn in accented mode.
public struct WidgetAccentedRenderingMode: Sendable, Hashable {
    let name: String
    public static let accented = WidgetAccentedRenderingMode(name: "accented")
    public static let desaturated = WidgetAccentedRenderingMode(name: "desaturated")
    public static let accentedDesaturated = WidgetAccentedRenderingMode(name: "accentedDesaturated")
    public static let fullColor = WidgetAccentedRenderingMode(name: "fullColor")
}

extension Image {
    public func widgetAccentedRenderingMode(_ renderingMode: WidgetAccentedRenderingMode?) -> some View {
        _modifier(.widgetAccentedRenderingMode(renderingMode?.name ?? "fullColor"))
    }
}
