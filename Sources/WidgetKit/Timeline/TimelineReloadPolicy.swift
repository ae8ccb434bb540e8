import WidgetHostProtocol

/// When the host should next ask for a timeline. A struct with static members, as in
/// WidgetKit, so that `.atEnd`, `.after(date)` and `.never` read the same in provider code.
public struct TimelineReloadPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The wire form the host receives.
    let wire: TimelinePolicy

    init(_ wire: TimelinePolicy) { self.wire = wire }

    /// Ask for a new timeline once the last entry's date has passed.
    public static let atEnd = TimelineReloadPolicy(.atEnd)

    /// Never ask on its own; only an explicit `reloadTimelines(ofKind:)` reloads.
    public static let never = TimelineReloadPolicy(.never)

    /// Ask for a new timeline at `date` (the host may wait longer: budget, minimum interval).
    public static func after(_ date: Date) -> TimelineReloadPolicy {
        TimelineReloadPolicy(.after(date))
    }

    public var description: String { wire.description }
}
