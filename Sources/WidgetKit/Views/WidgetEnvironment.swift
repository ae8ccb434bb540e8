import SwiftUI
import WidgetHostProtocol

/// How the system draws the widget: in full colour (home screen), accented (tinted home
/// screen, StandBy at night) or vibrant (lock screen).
public struct WidgetRenderingMode: Sendable, Hashable, CustomStringConvertible {
    let mode: ViewEnvironment.RenderingMode
    public static let fullColor = WidgetRenderingMode(mode: .fullColor)
    public static let accented = WidgetRenderingMode(mode: .accented)
    public static let vibrant = WidgetRenderingMode(mode: .vibrant)
    public var description: String { mode.rawValue }
}

private struct WidgetFamilyKey: EnvironmentKey { static let defaultValue = WidgetFamily.systemSmall }
private struct WidgetRenderingModeKey: EnvironmentKey { static let defaultValue = WidgetRenderingMode.fullColor }
private struct ShowsContainerBackgroundKey: EnvironmentKey { static let defaultValue = true }
private struct WidgetContentMarginsKey: EnvironmentKey {
    static let defaultValue = EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16)
}

extension EnvironmentValues {
    /// The family the view is rendered for.
    public var widgetFamily: WidgetFamily {
        get { self[WidgetFamilyKey.self] }
        set { self[WidgetFamilyKey.self] = newValue }
    }

    public var widgetRenderingMode: WidgetRenderingMode {
        get { self[WidgetRenderingModeKey.self] }
        set { self[WidgetRenderingModeKey.self] = newValue }
    }

    /// False where the system removes the container background (lock screen, StandBy).
    public var showsWidgetContainerBackground: Bool {
        get { self[ShowsContainerBackgroundKey.self] }
        set { self[ShowsContainerBackgroundKey.self] = newValue }
    }

    /// The margins the system applies inside the widget.
    public var widgetContentMargins: EdgeInsets {
        get { self[WidgetContentMarginsKey.self] }
        set { self[WidgetContentMarginsKey.self] = newValue }
    }
}

extension EnvironmentValues {
    /// The environment of a request: family, colour scheme, rendering mode, container background, scale.
    init(family: WidgetFamily, _ environment: ViewEnvironment, redaction: RedactionReasons = []) {
        self.init()
        widgetFamily = family
        colorScheme = environment.colorScheme == .dark ? .dark : .light
        widgetRenderingMode = WidgetRenderingMode(mode: environment.widgetRenderingMode)
        showsWidgetContainerBackground = environment.showsWidgetContainerBackground
        displayScale = CGFloat(environment.displayScale)
        redactionReasons = redaction
        if family.rawValue.hasPrefix("accessory") {
            widgetContentMargins = EdgeInsets()
        }
    }
}
