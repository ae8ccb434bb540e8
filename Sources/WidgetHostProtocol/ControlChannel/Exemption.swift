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
    /// The device's locale changed (Apple).
    case localeChange
    /// Dynamic Type or another accessibility setting changed (Apple).
    case accessibilityChange
    /// `budget.enforce = false`, as under a debugger (Apple).
    case budgetNotEnforced
}
