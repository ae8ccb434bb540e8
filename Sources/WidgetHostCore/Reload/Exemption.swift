/// Why a reload does not count against the budget and ignores the minimum interval.
public enum Exemption: String, Sendable, Hashable, Codable, CaseIterable {
    /// The widget was just added.
    case added
    /// The host started after a reboot (the boot id changed).
    case reboot
    /// The calling app says it is in the foreground (Apple).
    case foreground
    /// The user interacted with the widget (Apple).
    case userInteraction
    /// An app intent ran (Apple).
    case appIntent
    /// The wall clock jumped or the time zone changed (Apple: "significant time change").
    case significantTimeChange
    /// `budget.enforce = false`, as under a debugger (Apple).
    case budgetNotEnforced

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
