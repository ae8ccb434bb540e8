import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// A real extension bundle in a simulation: one process per request, started under
/// libfaketime so that unmodified `Date()` calls see the virtual now. Deadlines and memory
/// are real: the process gets the wall-clock time the core allows and is sampled as the
/// daemon samples it. This only measures; what a breach means is the core's decision.
struct FakeTimeExtension {
    enum Outcome {
        case replied(ExtensionReply, footprintBytes: Int?)
        case failed(ExtensionFailure)
        /// Stopped by the harness: the deadline passed, or the core asked for a kill after a sample.
        case stopped
    }

    let bundle: ExtensionBundle
    let descriptor: ExtensionDescriptor
    let baseEnvironment: [String: String]
    let limits: ExtensionLimits

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
            bundle: bundle, descriptor: bundle.descriptor(widgets: []), baseEnvironment: environment, limits: limits)
        switch InitializeProbe.run(probe.launch(at: start), limits: limits) {
        case .success(let widgets):
            return FakeTimeExtension(
                bundle: bundle, descriptor: bundle.descriptor(widgets: widgets), baseEnvironment: environment,
                limits: limits)
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

    /// Runs one request in a fresh process started at virtual `now`.
    func perform(
        _ request: ExtensionRequest, at now: Date, timeout: TimeInterval, sampleInterval: TimeInterval,
        onSample: (Int, TimeInterval) -> Bool
    ) -> (Outcome, elapsed: TimeInterval) {
        let process: ExtensionProcess
        do {
            process = try ExtensionProcess.start(launch(at: now), limits: limits, sampleInterval: sampleInterval)
        } catch {
            return (.failed(.crashed(error.description)), 0)
        }
        defer { process.finish() }
        process.send(request.id, request.call)
        let limit = process.started + .nanoseconds(Int64(timeout * 1_000_000_000))
        while let event = process.next(until: limit) {
            switch event {
            case .sampled(let bytes):
                if !onSample(bytes, process.elapsed) { return (.stopped, process.elapsed) }
            case .replied(_, let reply, let footprint): return (.replied(reply, footprintBytes: footprint), process.elapsed)
            case .failed(_, let failure): return (.failed(failure), process.elapsed)
            case .stopped(let reason): return (.failed(.protocolError(reason)), process.elapsed)
            case .initialized, .stderr, .note, .exited: continue
            }
        }
        return (.stopped, process.elapsed)
    }
}

/// Why the harness cannot run a scenario (beyond the scenario file itself).
public struct HarnessError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
