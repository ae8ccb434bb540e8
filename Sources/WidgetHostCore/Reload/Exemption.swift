import WidgetHostProtocol

extension Exemption {
    /// Apple exempts every call but one from an app in the background.
    init?(origin: ReloadOrigin) {
        switch origin {
        case .background: return nil
        case .foreground: self = .foreground
        case .userInteraction: self = .userInteraction
        case .appIntent: self = .appIntent
        }
    }
}

/// What made a reload necessary.
public enum ReloadCause: String, Sendable, Hashable, Codable {
    /// The timeline's policy fell due.
    case policy
    /// An app or user asked.
    case requested
    /// A failed reload left the widget due; tried again after backoff.
    case retry
    /// Added, rebooted, or a significant time change.
    case host
}
