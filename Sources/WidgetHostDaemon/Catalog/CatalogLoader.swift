import Foundation
import NIOCore
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// Turns the bundles a scan found (`BundleScanner`) into the catalog: prepares each one's environment and app group
/// containers, runs `initialize` on all of them at once, and reports which loaded.
struct CatalogLoader {
    var appGroupsPath: String
    /// Variables passed through from the daemon's own environment (DESIGN.md: the rest is cleared).
    var inheritedEnvironment: [String: String]
    /// Extra variables for every extension (the virtual clock sets FAKETIME here).
    var extraEnvironment: [String: String] = [:]
    /// The limits every probe runs under.
    var limits: ExtensionLimits
    var spawner: ProcessSpawner

    struct Loaded: Sendable {
        var result: ExtensionsResult
        var descriptors: [ExtensionDescriptor]
        var launches: [String: ExtensionLaunch]
    }

    func load(found: [ExtensionBundle], skipped: [SkippedBundle], in table: ProcessTable) -> EventLoopFuture<Loaded> {
        let eventLoop = table.eventLoop
        var skippedBefore = skipped
        var ready: [(ExtensionBundle, ExtensionLaunch)] = []
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
            ProcessPipes.probe(launch, limits: limits, spawner: spawner, in: table).map { (bundle, launch, $0) }
        }
        return EventLoopFuture.whenAllSucceed(probes, on: eventLoop).map { results in
            var launches: [String: ExtensionLaunch] = [:]
            var skipped = skippedEarly
            var loaded: [LoadedExtension] = []
            var descriptors: [ExtensionDescriptor] = []
            for (bundle, launch, result) in results {
                switch result {
                case .success(let answer):
                    launches[bundle.bundleID] = launch
                    var entry = bundle.loaded(widgets: answer.widgets, controls: answer.controls ?? [])
                    entry.sandbox = spawner.confinement.sandbox(for: launch)
                    loaded.append(entry)
                    descriptors.append(
                        bundle.descriptor(
                            widgets: answer.widgets, controls: answer.controls ?? [], activities: answer.activities ?? [],
                            pipelining: answer.pipelining ?? false))
                case .failure(let failure):
                    skipped.append(
                        SkippedBundle(
                            path: bundle.directory.path,
                            reason: InitializeProbe.skipReason(failure, executable: bundle.executable.path)))
                }
            }
            return Loaded(
                result: ExtensionsResult(
                    loaded: loaded.sorted { $0.id < $1.id }, skipped: skipped.sorted { $0.path < $1.path }),
                descriptors: descriptors, launches: launches)
        }
    }

    /// The launch for one bundle (`ExtensionLaunch(preparing:)`) with this loader's environment.
    func prepare(_ bundle: ExtensionBundle) throws -> ExtensionLaunch {
        try ExtensionLaunch(
            preparing: bundle, appGroupsPath: appGroupsPath, inheritedEnvironment: inheritedEnvironment,
            extra: extraEnvironment)
    }
}
