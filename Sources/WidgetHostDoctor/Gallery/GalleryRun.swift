import Foundation
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// Every kind × family of a bundle as the widget gallery and Xcode's preview timeline show
/// it: the placeholder, the snapshot (`isPreview`), and each entry of a timeline, each asked
/// of a freshly started process with the host's limits, without a daemon. What
/// `widgethost gallery` draws.
public struct GalleryRun: Sendable {
    public struct Options: Sendable {
        /// The instant to ask at (`now`, and the extension's clock through libfaketime); nil: now.
        public var now: Date?
        /// The environment the views are rendered in (request `environment`).
        public var environment = ViewEnvironment()
        public var limits = DoctorLimits()
        public var environmentVariables: [String: String] = ProcessInfo.processInfo.environment
        public var temporaryDirectory = FileManager.default.temporaryDirectory
        public init() {}
    }

    public struct Widget: Sendable {
        public var descriptor: WidgetDescriptor
        public var families: [Family]
    }

    public struct Family: Sendable {
        public var family: WidgetFamily
        public var placeholder: Answer<TimelineEntryPayload>
        public var snapshot: Answer<TimelineEntryPayload>
        public var timeline: Answer<TimelinePayload>
    }

    public enum Answer<Value: Sendable>: Sendable {
        case answered(Value)
        /// What went wrong, in a sentence (the doctor's wording).
        case failed(String)
    }

    public var bundle: URL
    public var bundleID: String
    public var now: Date
    /// The sample data directories of the bundle's app groups, where its images may live.
    public var appGroupContainers: [URL]
    public var widgets: [Widget]

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case bundle(String)
        case fakeTimeMissing
        case initialize(String)

        public var description: String {
            switch self {
            case .bundle(let reason): "the bundle cannot be loaded: \(reason) (widgethost doctor says more)"
            case .fakeTimeMissing: Doctor.Failure.fakeTimeMissing.description
            case .initialize(let reason): "the extension did not list its widgets: \(reason)"
            }
        }
    }

    public static func collect(bundleAt directory: URL, options: Options = Options()) throws(Failure) -> GalleryRun {
        var extra: [String: String] = [:]
        if let now = options.now {
            guard let fake = FakeTime.environment(.startingAt(now)) else { throw .fakeTimeMissing }
            extra = fake
        }
        let now = options.now ?? Date()
        let (findings, loaded) = BundleChecks.run(directory)
        guard let bundle = loaded else {
            throw .bundle(findings.first { $0.verdict == .fail }?.detail ?? "it is not a widget extension bundle")
        }
        let sampleData = SampleData(bundle: directory)
        let workspace: Workspace
        do {
            workspace = try Workspace(
                bundle: bundle, sampleData: sampleData, temporaryDirectory: options.temporaryDirectory,
                inheritedEnvironment: options.environmentVariables, extraEnvironment: extra)
        } catch {
            throw .bundle("cannot make a scratch directory: \(error)")
        }
        let ask = ExtensionAsk(caller: Caller(workspace: workspace, limits: options.limits), limits: options.limits)

        let descriptors: [WidgetDescriptor]
        switch ask.initialize() {
        case .answered(let result): descriptors = result.widgets
        case .failed(let reason): throw .initialize(reason)
        }
        let environment = options.environment
        let widgets = descriptors.map { descriptor in
            Widget(
                descriptor: descriptor,
                families: descriptor.supportedFamilies.map { family in
                    Family(
                        family: family,
                        placeholder: ask.entry(
                            .placeholder(PlaceholderParams(kind: descriptor.kind, family: family, environment: environment))),
                        snapshot: ask.entry(
                            .snapshot(
                                SnapshotParams(kind: descriptor.kind, family: family, isPreview: true, environment: environment))),
                        timeline: ask.timeline(
                            TimelineParams(
                                kind: descriptor.kind, family: family, widgetId: "gallery", now: now, environment: environment)))
                })
        }
        return GalleryRun(
            bundle: directory, bundleID: bundle.bundleID, now: now,
            appGroupContainers: sampleData.groups.values.sorted { $0.path < $1.path }, widgets: widgets)
    }
}

/// The one place the gallery runs an extension: each request a cold call through the
/// doctor's `Caller` (the shared runner), failures in the doctor's words.
struct ExtensionAsk {
    let caller: Caller
    let limits: DoctorLimits

    func initialize() -> GalleryRun.Answer<InitializeResult> {
        let outcome = caller.initialize()
        switch outcome.result {
        case .success(let result): return .answered(result)
        case .failure(let failure): return .failed(explain(failure, .initialize, stderrTail: outcome.stderrTail))
        }
    }

    func entry(_ call: ExtensionRequest.Call) -> GalleryRun.Answer<TimelineEntryPayload> {
        answer(call) { reply in
            if case .entry(let entry) = reply { entry } else { nil }
        }
    }

    func timeline(_ params: TimelineParams) -> GalleryRun.Answer<TimelinePayload> {
        answer(.timeline(params)) { reply in
            if case .timeline(let timeline, _) = reply { timeline } else { nil }
        }
    }

    private func answer<Value: Sendable>(
        _ call: ExtensionRequest.Call, _ extract: (ExtensionReply) -> Value?
    ) -> GalleryRun.Answer<Value> {
        let outcome = caller.call(call).outcome
        switch outcome.result {
        case .success(let reply):
            guard let value = extract(reply) else {
                return .failed("its \(call.method.rawValue) reply has the wrong shape")
            }
            return .answered(value)
        case .failure(let failure):
            return .failed(explain(failure, call.method, stderrTail: outcome.stderrTail))
        }
    }

    private func explain(_ failure: ColdCall.Failure, _ method: ExtensionMethod, stderrTail: [String]) -> String {
        Explain.failure(
            failure, method: method, limits: limits, stderrTail: stderrTail,
            executable: caller.workspace.bundle.executable.path
        ).detail
    }
}
