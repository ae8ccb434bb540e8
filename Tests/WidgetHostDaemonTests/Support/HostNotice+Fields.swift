import Foundation
import WidgetHostProtocol

/// The flat fields these tests read, as `subscribe` sends them (`detail` is an
/// `entryChanged` notice's source, as on the wire).
extension HostNotice {
    var detail: String? {
        switch self {
        case .reloadFinished(_, _, _, _, _, _, let detail): detail
        case .extensionKilled(_, _, _, _, _, _, let detail), .extensionStopped(_, _, let detail): detail
        case .entryChanged(_, _, _, let source): source.rawValue
        default: nil
        }
    }

    var entry: TimelineEntryPayload? {
        switch self {
        case .entryChanged(_, _, let entry, _): entry
        case .snapshotReceived(_, _, let entry): entry
        default: nil
        }
    }

    var requestedAt: Date? {
        switch self {
        case .reloadStarted(_, _, _, let requestedAt), .reloadDeferred(_, _, _, let requestedAt, _, _): requestedAt
        default: nil
        }
    }

    var charge: ReloadCharge? {
        if case .reloadStarted(_, _, let charge, _) = self { charge } else { nil }
    }
}
