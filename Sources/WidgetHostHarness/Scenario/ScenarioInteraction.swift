import Foundation

/// What the user does to a widget besides looking at it (`[[widget]]`'s `taps` and
/// `configure`): the exempt reloads Apple grants for an interaction, replayed at set times.
public struct WidgetInteraction: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A tap on a `Button(intent:)` or `Toggle(isOn:intent:)`: the intent runs in the
        /// extension; on success the tapped widget reloads at once (exempt, appIntent).
        case tap
        /// The user edits the widget's configuration (exempt, userInteraction).
        case configure
    }

    public var kind: Kind
    public var times: ReloadSchedule.Times
    /// A tap's button (`b1`, its intent's type or title, or its label); nil: an intent named
    /// `Tap`, run without a button (a synthetic provider draws no view).
    public var button: String?
    /// The line of the schedule, for messages about it.
    public var line: Int
}

/// `[[device]]`: at `after` the start, the device's locale or Dynamic Type size changes; every
/// widget reloads once, exempt (Apple), and extensions see the new values in their requests.
public struct ScenarioDeviceChange: Sendable {
    public var after: TimeInterval
    public var locale: String?
    public var textSize: String?
    public var line: Int
}
