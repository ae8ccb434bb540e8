import WidgetHostProtocol

/// What the host tells a provider about the widget it is asking for.
public struct TimelineProviderContext: Sendable, Hashable {
    public let family: WidgetFamily
    /// True when the widget is shown in the gallery rather than on the home screen:
    /// return sample data quickly.
    public let isPreview: Bool
    /// The widget's size in points on the reference device.
    public let displaySize: CGSize
    /// The environment the host asked the entry's view to be rendered in (request `environment`).
    var viewEnvironment = ViewEnvironment()

    public init(family: WidgetFamily, isPreview: Bool = false, displaySize: CGSize? = nil) {
        self.family = family
        self.isPreview = isPreview
        self.displaySize = displaySize ?? CGSize(width: family.displaySize.width, height: family.displaySize.height)
    }
}
