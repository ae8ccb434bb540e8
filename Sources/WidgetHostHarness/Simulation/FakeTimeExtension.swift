import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// A real extension bundle in a simulation: its catalog entry, and the launch of a process
/// started under libfaketime so that unmodified `Date()` calls see the virtual now
/// (`SimulationRunner` runs one per request).
struct FakeTimeExtension {
    let bundle: ExtensionBundle
    let descriptor: ExtensionDescriptor
    let baseEnvironment: [String: String]

    /// Checks the bundle, prepares its app group containers and asks `initialize` at `start`.
    static func load(
        path: String, timeZone: TimeZone, appGroupsPath: String, at start: Date, limits: ExtensionLimits
    ) throws(HarnessError) -> FakeTimeExtension {
        guard FakeTime.library != nil else {
            throw HarnessError("\(path): real extensions run under libfaketime, and \(FakeTime.missing)")
        }
        let bundle: ExtensionBundle
        do {
            bundle = try ExtensionBundle.load(at: URL(fileURLWithPath: path))
        } catch {
            throw HarnessError("\(error)")
        }
        // The daemon's own environment for extensions (PATH, LANG, TZ and what the host sets),
        // with TZ the scenario's zone.
        var inherited = ProcessInfo.processInfo.environment
        inherited["TZ"] = timeZone.identifier
        let environment: [String: String]
        do {
            environment = try ExtensionLaunch(
                preparing: bundle, appGroupsPath: appGroupsPath, inheritedEnvironment: inherited
            ).environment
        } catch {
            throw HarnessError("\(path): cannot prepare its app group containers under \(appGroupsPath): \(error)")
        }
        let probe = FakeTimeExtension(
            bundle: bundle, descriptor: bundle.descriptor(widgets: []), baseEnvironment: environment)
        switch InitializeProbe.run(probe.launch(at: start), limits: limits) {
        case .success(let answer):
            return FakeTimeExtension(
                bundle: bundle, descriptor: bundle.descriptor(
                    widgets: answer.widgets, controls: answer.controls ?? [], activities: answer.activities ?? []),
                baseEnvironment: environment)
        case .failure(let failure):
            throw HarnessError(InitializeProbe.skipReason(failure, executable: path))
        }
    }

    /// The launch of a process that sees `now` (libfaketime's "start at" form).
    func launch(at now: Date) -> ExtensionLaunch {
        var environment = baseEnvironment
        environment.merge(FakeTime.environment(.startingAt(now)) ?? [:]) { _, fake in fake }
        return ExtensionLaunch(
            bundleID: bundle.bundleID, executable: bundle.executable.path, directory: bundle.directory.path,
            environment: environment)
    }
}

/// Why the harness cannot run a scenario (beyond the scenario file itself).
public struct HarnessError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
