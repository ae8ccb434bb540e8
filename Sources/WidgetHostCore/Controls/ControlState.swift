import Foundation
import WidgetHostProtocol

/// A Control widget: one extension's control kind.
struct ControlKey: Sendable, Hashable, Comparable {
    var `extension`: String
    var kind: String
    static func < (lhs: ControlKey, rhs: ControlKey) -> Bool {
        (lhs.extension, lhs.kind) < (rhs.extension, rhs.kind)
    }
}

/// What the host knows of a control: its declaration and its provider's last answer.
struct ControlState: Sendable, Hashable {
    var descriptor: ControlDescriptor
    var app: String
    var value: ControlValueResult?
    var updatedAt: Date?
    /// The `control/value` request that is out.
    var asking: RequestID?
    /// A reload came while `asking`: the provider is asked once more after it answers (the
    /// data may have changed after it read it), as a widget's reload is.
    var askAgain = false
    var lastError: String?
}
