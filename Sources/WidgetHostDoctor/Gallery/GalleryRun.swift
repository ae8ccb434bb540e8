import Foundation
import WidgetHostProtocol

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
            guard let fake = FakeTime.environment(startingAt: now) else { throw .fakeTimeMissing }
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
        let runner = Runner(workspace: workspace, limits: options.limits)
        let ask = ExtensionAsk(runner: runner, limits: options.limits)

        let descriptors: [WidgetDescriptor]
        switch ask(.initialize, params: nil as JSONValue?, as: InitializeResult.self) {
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
                        placeholder: ask(
                            .placeholder,
                            params: PlaceholderParams(kind: descriptor.kind, family: family, environment: environment),
                            as: TimelineEntryPayload.self),
                        snapshot: ask(
                            .snapshot,
                            params: SnapshotParams(kind: descriptor.kind, family: family, isPreview: true, environment: environment),
                            as: TimelineEntryPayload.self),
                        timeline: ask(
                            .timeline,
                            params: TimelineParams(
                                kind: descriptor.kind, family: family, widgetId: "gallery", now: now, environment: environment),
                            as: TimelinePayload.self))
                })
        }
        return GalleryRun(
            bundle: directory, bundleID: bundle.bundleID, now: now,
            appGroupContainers: sampleData.groups.values.sorted { $0.path < $1.path }, widgets: widgets)
    }
}

/// The one place the gallery runs an extension: through the doctor's runner today, the
/// shared `WidgetHostRunner` once issue 12 lands — only this type changes then.
struct ExtensionAsk {
    let runner: Runner
    let limits: DoctorLimits

    func callAsFunction<Result: Decodable & Sendable>(
        _ method: ExtensionMethod, params: (some Encodable)?, as type: Result.Type
    ) -> GalleryRun.Answer<Result> {
        let deadline = method == .placeholder ? limits.placeholderTimeout : limits.timelineTimeout
        let run = runner.call(method, params: params.flatMap { try? JSONValue(encoding: $0) }, deadline: deadline)
        switch run.outcome.result {
        case .success(let value):
            do {
                return .answered(try value.decode(as: Result.self))
            } catch {
                return .failed("its \(method.rawValue) reply does not match the protocol: \(Decoding.describe(error))")
            }
        case .failure(let failure):
            let explained = Explain.failure(
                failure, method: method, deadline: deadline, limits: limits, outcome: run.outcome,
                executable: runner.workspace.bundle.executable.path)
            return .failed(explained.detail)
        }
    }
}
