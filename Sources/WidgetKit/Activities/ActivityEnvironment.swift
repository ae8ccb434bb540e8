import SwiftUI
import WidgetHostProtocol

/// WidgetKit's `ActivityFamily` (iOS 18): the size class a Live Activity is drawn for.
/// On iPhone and iPad every presentation is `.medium`; `.small` is the Apple Watch Smart
/// Stack's and CarPlay's, which this host does not draw.
public enum ActivityFamily: Sendable, Hashable {
    case small
    case medium
}

private struct ActivityFamilyKey: EnvironmentKey { static let defaultValue = ActivityFamily.medium }
private struct ActivityFullscreenKey: EnvironmentKey { static let defaultValue = false }

extension EnvironmentValues {
    /// The family the Live Activity is drawn for (`.medium` here).
    public var activityFamily: ActivityFamily {
        get { self[ActivityFamilyKey.self] }
        set { self[ActivityFamilyKey.self] = newValue }
    }

    /// Whether the Lock Screen view fills the screen (StandBy); never on this host.
    public var isActivityFullscreen: Bool {
        get { self[ActivityFullscreenKey.self] }
        set { self[ActivityFullscreenKey.self] = newValue }
    }

    /// The environment of one presentation of a Live Activity: the request's colour scheme,
    /// scale and rendering mode on the Lock Screen; dark and without a container background in
    /// the Dynamic Island (it is always black); the presentation's margins (docs/rules.md,
    /// "Live Activity views").
    init(activity presentation: ActivityPresentation, _ environment: ViewEnvironment) {
        self.init()
        let drawn = environment.drawing(presentation)
        activityFamily = .medium
        isActivityFullscreen = false
        colorScheme = drawn.colorScheme == .dark ? .dark : .light
        widgetRenderingMode = WidgetRenderingMode(mode: drawn.widgetRenderingMode)
        showsWidgetContainerBackground = drawn.showsWidgetContainerBackground
        displayScale = CGFloat(drawn.displayScale)
        let margin = CGFloat(presentation.contentMargin)
        widgetContentMargins = EdgeInsets(top: margin, leading: margin, bottom: margin, trailing: margin)
    }
}

extension ViewEnvironment {
    /// The request's environment as one presentation draws in it: the Dynamic Island is dark,
    /// in full colour, without a container background; the Lock Screen keeps the request's.
    func drawing(_ presentation: ActivityPresentation) -> ViewEnvironment {
        guard presentation.isDynamicIsland else { return self }
        var island = self
        island.colorScheme = .dark
        island.widgetRenderingMode = .fullColor
        island.showsWidgetContainerBackground = false
        return island
    }
}
