import Foundation
import WidgetHostProtocol

/// Updates apply in the order their data was generated, not the order they arrive: an update
/// or end whose `timestamp` is older than the last one applied is ignored. Apple,
/// `update(_:alertConfiguration:timestamp:)` and `end(_:dismissalPolicy:timestamp:)`: "The
/// time the data in the payload was generated. If this is older than a previous update or
/// push payload, the system ignores this update." A push carries it as `aps.timestamp`.
///
/// An update without a timestamp (a local `update(_:)`) is always applied and moves nothing:
/// the host cannot know when its data was generated. An equal timestamp is not older.
public enum PushOrdering {
    public struct Outdated: Sendable, Hashable, CustomStringConvertible {
        public var timestamp: Date
        public var lastApplied: Date

        public var description: String {
            "its timestamp \(RFC3339.format(timestamp)) is older than the last applied update's \(RFC3339.format(lastApplied)) "
                + "(a device ignores it without a word: Apple, \"If this is older than a previous update or push payload, the system ignores this update\")"
        }
    }

    /// Why an update stamped `timestamp` is too old to apply after one stamped `lastApplied`; nil when it applies.
    public static func outdated(_ timestamp: Date?, after lastApplied: Date?) -> Outdated? {
        guard let timestamp, let lastApplied, timestamp < lastApplied else { return nil }
        return Outdated(timestamp: timestamp, lastApplied: lastApplied)
    }
}
