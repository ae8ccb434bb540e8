import Foundation

/// Everything `widgethost doctor` found about one bundle, in checklist order.
public struct DoctorReport: Sendable, Hashable, Codable {
    public struct Summary: Sendable, Hashable, Codable {
        public var pass = 0
        public var warn = 0
        public var fail = 0
        public var skipped = 0
    }

    /// The bundle directory, as given.
    public var bundle: String
    /// `CFBundleIdentifier`, when Info.plist could be read.
    public var bundleID: String?
    /// The `now` every `timeline/get` was sent (and, with `--now`, the clock the extension saw).
    public var now: Date
    public var findings: [Finding]
    public var summary: Summary
    /// True when no line failed: the exit status of `widgethost doctor` is 0.
    public var passed: Bool

    public init(bundle: String, bundleID: String?, now: Date, findings: [Finding]) {
        self.bundle = bundle
        self.bundleID = bundleID
        self.now = now
        self.findings = findings
        var summary = Summary()
        for finding in findings {
            switch finding.verdict {
            case .pass: summary.pass += 1
            case .warn: summary.warn += 1
            case .fail: summary.fail += 1
            case .skipped: summary.skipped += 1
            }
        }
        self.summary = summary
        self.passed = summary.fail == 0
    }

    /// The findings of one check, e.g. every `placeholder.time` line.
    public func findings(_ check: CheckID) -> [Finding] {
        findings.filter { $0.check == check }
    }
}
