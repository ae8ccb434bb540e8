import Foundation
import NIOCore
import WidgetHostCore
import WidgetHostProtocol

/// Turns the bundles a scan found (`PluginScanner`) into the catalog: prepares each one's environment and app group
/// containers, runs `initialize` on all of them at once, and reports which loaded.
public struct CatalogLoader {
    public var appGroupsPath: String
    /// Variables passed through from the daemon's own environment (DESIGN.md: the rest is cleared).
    public var inheritedEnvironment: [String: String]
    /// Extra variables for every extension (the virtual clock sets FAKETIME here).
    public var extraEnvironment: [String: String] = [:]

    public init(
        appGroupsPath: String, inheritedEnvironment: [String: String], extraEnvironment: [String: String] = [:]
    ) {
        self.appGroupsPath = appGroupsPath
        self.inheritedEnvironment = inheritedEnvironment
        self.extraEnvironment = extraEnvironment
    }

    struct Loaded: Sendable {
        var result: ExtensionsResult
        var descriptors: [ExtensionDescriptor]
        var launches: [String: ExtensionLaunch]
    }

    func load(found: [PluginBundle], skipped: [SkippedBundle], in table: ProcessTable) -> EventLoopFuture<Loaded> {
        let eventLoop = table.eventLoop
        var skippedBefore = skipped
        var ready: [(PluginBundle, ExtensionLaunch)] = []
        for bundle in found {
            do {
                let launch = try prepare(bundle)
                ready.append((bundle, launch))
            } catch {
                skippedBefore.append(SkippedBundle(path: bundle.directory.path, reason: "\(error)"))
            }
        }
        let skippedEarly = skippedBefore
        let probes = ready.map { bundle, launch in
            InitializeProbe.run(launch, in: table).map { (bundle, launch, $0) }
        }
        return EventLoopFuture.whenAllSucceed(probes, on: eventLoop).map { results in
            var launches: [String: ExtensionLaunch] = [:]
            var skipped = skippedEarly
            var loaded: [LoadedExtension] = []
            var descriptors: [ExtensionDescriptor] = []
            for (bundle, launch, result) in results {
                switch result {
                case .success(let initialize) where initialize.widgets.isEmpty:
                    skipped.append(
                        SkippedBundle(
                            path: bundle.directory.path,
                            reason: "\(bundle.executable.path): initialize listed no widgets; add at least one Widget to the WidgetBundle's body"))
                case .success(let initialize):
                    launches[bundle.bundleID] = launch
                    loaded.append(
                        LoadedExtension(
                            id: bundle.bundleID, app: bundle.appID, displayName: bundle.displayName,
                            path: bundle.directory.path, appGroups: bundle.appGroups, widgets: initialize.widgets))
                    descriptors.append(
                        ExtensionDescriptor(
                            id: bundle.bundleID, app: bundle.appID, displayName: bundle.displayName,
                            widgets: initialize.widgets))
                case .failure(let failure):
                    skipped.append(
                        SkippedBundle(
                            path: bundle.directory.path,
                            reason: "\(bundle.executable.path): \(failure.description); run it by hand with "
                                + "echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}' | \(bundle.executable.path)"))
                }
            }
            return Loaded(
                result: ExtensionsResult(
                    loaded: loaded.sorted { $0.id < $1.id }, skipped: skipped.sorted { $0.path < $1.path }),
                descriptors: descriptors, launches: launches)
        }
    }

    /// The environment an extension runs with: cleared except PATH, LANG, TZ, plus what
    /// the host sets. Each app group it is entitled to gets a container directory.
    public func prepare(_ bundle: PluginBundle) throws -> ExtensionLaunch {
        var environment = inheritedEnvironment.filter { ["PATH", "LANG", "TZ"].contains($0.key) }
        if environment["PATH"] == nil { environment["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        environment["WIDGETHOST_BUNDLE"] = bundle.directory.path
        var groups: [String] = []
        for group in bundle.appGroups.sorted() {
            let container = (appGroupsPath as NSString).appendingPathComponent(group)
            try AppGroupContainer.make(at: container)
            groups.append("\(group)=\(container)")
        }
        environment["WIDGETHOST_APP_GROUPS"] = groups.joined(separator: ":")
        environment.merge(extraEnvironment) { _, extra in extra }
        return ExtensionLaunch(
            bundleID: bundle.bundleID, executable: bundle.executable.path, directory: bundle.directory.path,
            environment: environment)
    }
}
