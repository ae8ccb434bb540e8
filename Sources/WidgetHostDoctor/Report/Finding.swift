import Foundation
import WidgetHostProtocol

/// One line of the pre-ship checklist: what was checked, for which widget, the verdict,
/// what was found, and — unless it passed — what to do about it.
public struct Finding: Sendable, Hashable, Codable {
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        case pass, warn, fail
        /// Not run, because a failure it depends on came first (no executable, no widgets).
        case skipped
    }

    public var check: CheckID
    /// The widget kind and family the line is about; nil for the bundle's own lines.
    public var kind: String?
    public var family: WidgetFamily?
    public var verdict: Verdict
    /// The checklist item, the same whatever the outcome: "placeholder answers within 1 s".
    public var title: String
    /// What the doctor found, with the measured figure: "answered in 12 ms".
    public var detail: String
    /// What to change; nil when the line passed.
    public var fix: String?
    /// The measured time from starting the process to the reply, for the timing lines.
    public var seconds: Double?
    /// The measured peak footprint (RssAnon + VmSwap), for the footprint line.
    public var footprintBytes: Int?

    public init(
        _ check: CheckID, _ verdict: Verdict, title: String, detail: String, fix: String? = nil,
        kind: String? = nil, family: WidgetFamily? = nil, seconds: Double? = nil, footprintBytes: Int? = nil
    ) {
        self.check = check
        self.kind = kind
        self.family = family
        self.verdict = verdict
        self.title = title
        self.detail = detail
        self.fix = verdict == .pass ? nil : fix
        self.seconds = seconds
        self.footprintBytes = footprintBytes
    }
}

/// The checks, with stable names for `--json` and for tests.
public enum CheckID: String, Sendable, Hashable, Codable, CaseIterable {
    case infoPlist = "bundle.infoPlist"
    case extensionPoint = "bundle.extensionPoint"
    case executable = "bundle.executable"
    case entitlements = "bundle.entitlements"
    case appGroup = "bundle.appGroup"
    case initialize = "bundle.initialize"
    case placeholderTime = "placeholder.time"
    case placeholderData = "placeholder.appGroupData"
    case snapshotTime = "snapshot.time"
    case timelineTime = "timeline.time"
    case footprint = "footprint"
    case entryOrder = "timeline.entryOrder"
    case entryCount = "timeline.entryCount"
    case policyInterval = "timeline.policyInterval"
    case firstLaunch = "timeline.firstLaunch"
    case sandbox = "sandbox.reach"
}
