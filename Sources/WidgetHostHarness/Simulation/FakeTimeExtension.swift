import Foundation
import WidgetHostCore
import WidgetHostDaemon
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A real extension bundle in a simulation: one process per request, started under
/// libfaketime so that unmodified `Date()` calls see the virtual now. Deadlines and memory
/// are real: the process gets the wall-clock time the core allows and is sampled as the
/// daemon samples it. This only measures; what a breach means is the core's decision.
struct FakeTimeExtension {
    /// Debian's `libfaketime` package.
    static let libraryPath = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

    enum Outcome {
        case replied(ExtensionReply, footprintBytes: Int?)
        case failed(ExtensionFailure)
        /// Stopped by the harness: the deadline passed, or the core asked for a kill after a sample.
        case stopped
    }

    let bundle: PluginBundle
    let descriptor: ExtensionDescriptor
    let baseEnvironment: [String: String]

    /// Checks the bundle, prepares its app group containers and asks `initialize` at `start`.
    static func load(
        path: String, timeZone: TimeZone, appGroupsPath: String, at start: Date
    ) throws(HarnessError) -> FakeTimeExtension {
        guard FileManager.default.fileExists(atPath: libraryPath) else {
            throw HarnessError(
                "\(path): real extensions run under libfaketime, and \(libraryPath) is missing; install the Debian package faketime (make deps)")
        }
        let bundle: PluginBundle
        do {
            bundle = try PluginBundle.load(at: URL(fileURLWithPath: path))
        } catch {
            throw HarnessError("\(error)")
        }
        // The daemon's own environment for extensions (PATH, LANG, TZ and what the host sets),
        // with TZ the scenario's zone.
        var inherited = ProcessInfo.processInfo.environment
        inherited["TZ"] = timeZone.identifier
        let environment: [String: String]
        do {
            environment = try CatalogLoader(appGroupsPath: appGroupsPath, inheritedEnvironment: inherited)
                .prepare(bundle).environment
        } catch {
            throw HarnessError("\(path): cannot prepare its app group containers under \(appGroupsPath): \(error)")
        }
        let probe = FakeTimeExtension(
            bundle: bundle, descriptor: ExtensionDescriptor(id: bundle.bundleID, widgets: []), baseEnvironment: environment)
        let (result, _) = probe.run(nil, at: start, timeout: 5, sampleInterval: 1, onSample: { _, _ in true })
        guard case .response(let value, _) = result else {
            throw HarnessError("\(path): initialize failed (\(result)); run it by hand to see why")
        }
        guard let initialize = try? value.decode(as: InitializeResult.self), !initialize.widgets.isEmpty else {
            throw HarnessError("\(path): its initialize reply lists no widgets or does not match the protocol")
        }
        return FakeTimeExtension(
            bundle: bundle,
            descriptor: ExtensionDescriptor(
                id: bundle.bundleID, app: bundle.appID, displayName: bundle.displayName, widgets: initialize.widgets),
            baseEnvironment: environment)
    }

    /// The variables that make the process see `now`: libfaketime's "start at" form, as seconds
    /// since the epoch so that no time zone or DST fold can shift it.
    static func fakeTimeEnvironment(at now: Date) -> [String: String] {
        [
            "LD_PRELOAD": libraryPath,
            "FAKETIME": "@\(Int(now.timeIntervalSince1970.rounded(.down)))",
            "FAKETIME_FMT": "%s",
            // CLOCK_MONOTONIC is shifted too but ticks at the real rate, so sleeps and timers
            // stay real. (FAKETIME_DONT_FAKE_MONOTONIC=1 would break absolute sleeps:
            // Python's time.sleep fails with EINVAL under it.)
        ]
    }

    /// Runs one request in a fresh process started at virtual `now`.
    func perform(
        _ request: ExtensionRequest, at now: Date, timeout: TimeInterval, sampleInterval: TimeInterval,
        onSample: (Int, TimeInterval) -> Bool
    ) -> (Outcome, elapsed: TimeInterval) {
        let params: JSONValue?
        switch request.call {
        case .placeholder(let value): params = try? JSONValue(encoding: value)
        case .snapshot(let value): params = try? JSONValue(encoding: value)
        case .timeline(let value): params = try? JSONValue(encoding: value)
        }
        let (result, elapsed) = run(
            (.number(request.id.value), request.call.method.rawValue, params), at: now, timeout: timeout,
            sampleInterval: sampleInterval, onSample: onSample)
        return (outcome(of: result, for: request), elapsed)
    }

    private func outcome(of result: ProcessRun.Result, for request: ExtensionRequest) -> Outcome {
        switch result {
        case .response(let value, let footprint):
            do {
                switch request.call {
                case .timeline:
                    let data = (try? WireCoding.encode(value)) ?? Data()
                    return .replied(.timeline(try value.decode(as: TimelinePayload.self), byteCount: data.count), footprintBytes: footprint)
                case .placeholder, .snapshot:
                    return .replied(.entry(try value.decode(as: TimelineEntryPayload.self)), footprintBytes: footprint)
                }
            } catch {
                return .failed(.protocolError("\(request.call.method.rawValue) reply does not match the protocol: \(error)"))
            }
        case .failure(let failure): return .failed(failure)
        case .stopped: return .stopped
        }
    }

    /// Starts the process at virtual `now`, sends `initialize` (every process hears it first)
    /// and then `request`, and waits for the reply to the last one sent.
    private func run(
        _ request: (id: JSONRPCID, method: String, params: JSONValue?)?, at now: Date, timeout: TimeInterval,
        sampleInterval: TimeInterval, onSample: (Int, TimeInterval) -> Bool
    ) -> (ProcessRun.Result, elapsed: TimeInterval) {
        var environment = baseEnvironment
        environment.merge(Self.fakeTimeEnvironment(at: now)) { _, fake in fake }
        let initializeID = JSONRPCID.string("initialize-1")
        var lines: [JSONRPCMessage] = [
            .request(id: initializeID, method: ExtensionMethod.initialize.rawValue,
                params: try? JSONValue(encoding: InitializeParams()))
        ]
        if let request { lines.append(.request(id: request.id, method: request.method, params: request.params)) }
        return ProcessRun.run(
            executable: bundle.executable.path, environment: environment, lines: lines,
            replyID: request?.id ?? initializeID, timeout: timeout, sampleInterval: sampleInterval, onSample: onSample)
    }
}

/// Why the harness cannot run a scenario (beyond the scenario file itself).
public struct HarnessError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
