import Foundation
import WidgetHostBundles
import WidgetHostProtocol
import WidgetHostRunner

/// `widgethost doctor`: checks one extension bundle against the mistakes that make real
/// widgets stale, blank or missing, without a daemon. It reads the bundle as the host
/// does, then starts the executable once per request, as the host would after an idle stop,
/// and measures each against the host's limits. See docs/porting.md.
public struct Doctor: Sendable {
    public struct Options: Sendable {
        /// The app groups the containing app writes to (`--app-group`), besides the sample
        /// data the bundle ships.
        public var appGroups: [String] = []
        /// The instant to judge timelines at: sent as `now` and, through libfaketime, the
        /// extension's own clock. Nil: the real time, and the real clock.
        public var now: Date?
        public var limits = DoctorLimits()
        /// Passed through as the host passes its own (only PATH, LANG and TZ survive).
        public var environment: [String: String] = ProcessInfo.processInfo.environment
        /// Where the scratch containers go; removed afterwards.
        public var temporaryDirectory = FileManager.default.temporaryDirectory

        public init() {}
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case fakeTimeMissing
        case workspace(String)

        public var description: String {
            switch self {
            case .fakeTimeMissing:
                "--now needs libfaketime, which is not installed; install it (Debian: apt-get install faketime, "
                    + "or make deps) or leave out --now"
            case .workspace(let reason): "cannot make a scratch directory: \(reason)"
            }
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    public func examine(bundleAt directory: URL) throws(Failure) -> DoctorReport {
        var extraEnvironment: [String: String] = [:]
        if let now = options.now {
            guard let fake = FakeTime.environment(.startingAt(now)) else { throw .fakeTimeMissing }
            extraEnvironment = fake
        }
        let now = options.now ?? Date()
        let shown = directory.relativePath
        var (findings, loaded) = BundleChecks.run(directory)
        guard let bundle = loaded else {
            findings.append(Finding(.appGroup, .skipped, title: AppGroupCheck.title, detail: "not checked: the bundle did not load"))
            findings.append(
                Finding(
                    .initialize, .skipped, title: InitializeCheck.title,
                    detail: "not run, and no widget was checked: the host skips this bundle until the failure above is fixed"))
            return DoctorReport(bundle: shown, bundleID: nil, now: now, findings: findings)
        }

        let sampleData = SampleData(bundle: directory)
        findings.append(AppGroupCheck.run(bundle, appWrites: options.appGroups, sampleData: sampleData))

        let workspace: Workspace
        do {
            workspace = try Workspace(
                bundle: bundle, sampleData: sampleData, temporaryDirectory: options.temporaryDirectory,
                inheritedEnvironment: options.environment, extraEnvironment: extraEnvironment)
        } catch {
            throw .workspace("\(error)")
        }
        let caller = Caller(workspace: workspace, limits: options.limits)
        let executable = bundle.executable.path
        let entitlements = bundle.entitlements?.lastPathComponent
            ?? "\(bundle.directory.deletingPathExtension().lastPathComponent).entitlements"
        let (initialize, widgets) = InitializeCheck.run(caller, executable: executable)
        findings.append(initialize)
        if initialize.verdict == .pass {
            for widget in widgets {
                for family in widget.supportedFamilies {
                    let probe = WidgetUnderTest(
                        kind: widget.kind, family: family, executable: executable, limits: options.limits,
                        entitlements: entitlements)
                    findings += probe.findings(caller: caller, now: now, hasSampleData: !sampleData.isEmpty)
                }
            }
        }
        return DoctorReport(bundle: shown, bundleID: bundle.bundleID, now: now, findings: findings)
    }
}
