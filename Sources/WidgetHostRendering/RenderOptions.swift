import Foundation
import WidgetHostProtocol

/// How to draw one widget: when (date-relative text is computed for this instant), in
/// which appearance and rendering mode, at which family's size on which device.
public struct RenderOptions: Sendable {
    /// The display instant: "2 hours, 5 minutes", timers and timer progress are computed for it.
    public var at: Date
    public var colorScheme: ViewEnvironment.ColorScheme
    /// nil: the family's own (vibrant on the lock screen, full colour on the home screen).
    public var mode: ViewEnvironment.RenderingMode?
    /// nil: the family the archive was rendered for.
    public var family: WidgetFamily?
    public var device: DeviceTable
    /// For `Text(date, style: .time/.date)`.
    public var timeZone: TimeZone
    /// Draw everything as placeholder shapes (`redacted(reason: .placeholder)`).
    public var redacted: Bool
    /// The device is locked: `privacySensitive()` content is redacted.
    public var locked: Bool
    public var images: any ImageSource
    /// The accent colour, `0xRRGGBB` (the system blue by default).
    public var accent: UInt32
    /// Shown, redacted, when the entry's archive was refused by the host.
    public var placeholder: ViewArchive?
    /// Written as `data-wh-id` on the widget's box, so that a page holding many widgets can
    /// replace one in place (`[data-wh-id="w1"]`).
    public var widgetID: String?
    /// An intent tapped in the widget that is still running (the core's state, from
    /// `status`): the tapped Toggle is drawn in its new state and `invalidatableContent` dims.
    public var interaction: IntentInteraction?

    public init(
        at: Date, colorScheme: ViewEnvironment.ColorScheme = .light, mode: ViewEnvironment.RenderingMode? = nil,
        family: WidgetFamily? = nil, device: DeviceTable = .iPhone,
        timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current, redacted: Bool = false, locked: Bool = false,
        images: any ImageSource = NoImages(), accent: UInt32 = 0x007AFF, placeholder: ViewArchive? = nil
    ) {
        self.at = at
        self.colorScheme = colorScheme
        self.mode = mode
        self.family = family
        self.device = device
        self.timeZone = timeZone
        self.redacted = redacted
        self.locked = locked
        self.images = images
        self.accent = accent
        self.placeholder = placeholder
    }
}

/// One widget drawn: an HTML fragment (a single `div.wh-widget`, styled by `Stylesheet.css`,
/// counted live by `LiveScript`), its size in points, and what could not be shown.
public struct RenderedWidget: Sendable, Hashable {
    public var html: String
    public var family: WidgetFamily
    public var width: Double
    public var height: Double
    /// Unknown nodes and modifiers, refused images, missing symbols: one sentence each.
    public var notes: [String]
}
