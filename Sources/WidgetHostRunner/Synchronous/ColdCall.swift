import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol

/// One request to a freshly started process, measured as the host measures it: `initialize`
/// and the request are written as soon as the process starts, and the clock runs from the
/// start (a cold start is what a device sees after the idle stop). The footprint is sampled
/// while it runs and once more with the reply. When it times out or is killed for memory is
/// the core's verdict (`ExtensionLimits.verdict`), asked with every sample; the call only
/// measures. The doctor makes every request this way, and the harness and the doctor ask
/// `initialize` this way.
public struct ColdCall: Sendable {
    public enum Failure: Error, Sendable, Hashable {
        /// The executable could not be started at all; the sentence says why.
        case notStarted(String)
        case failed(ExtensionFailure)
    }

    private enum Answer: Sendable, Hashable {
        case initialized(InitializeResult)
        case replied(ExtensionReply)
    }

    public struct Outcome<Answer: Sendable>: Sendable {
        public init(result: Result<Answer, Failure>, seconds: Double, peakFootprint: Int?, stderrTail: [String]) {
            self.result = result
            self.seconds = seconds
            self.peakFootprint = peakFootprint
            self.stderrTail = stderrTail
        }

        public var result: Result<Answer, Failure>
        /// From starting the process to the answer (or to the failure).
        public var seconds: Double
        /// The highest footprint seen, nil if the process was gone before the first sample.
        public var peakFootprint: Int?
        /// The last lines the extension wrote to stderr, to explain a failure.
        public var stderrTail: [String]
    }

    /// The limits the core holds the request to.
    public var limits: ExtensionLimits
    /// How often the footprint is sampled; nil: never (nor judged).
    public var sampleInterval: TimeInterval?
    public var spawner: ProcessSpawner

    /// `spawner` nil: the sandbox `limits.sandbox` asks for.
    public init(limits: ExtensionLimits, sampleInterval: TimeInterval?, spawner: ProcessSpawner? = nil) {
        self.limits = limits
        self.sampleInterval = sampleInterval
        self.spawner = spawner ?? .sandboxed(limits)
    }

    /// Starts `launch`, asks `initialize` and waits for its answer. The process is killed afterwards.
    public func initialize(_ launch: ExtensionLaunch) -> Outcome<InitializeResult> {
        let outcome = run(launch, call: nil)
        return Outcome(
            result: outcome.result.flatMap {
                guard case .initialized(let result) = $0 else { return .failure(.notStarted("no initialize")) }
                return .success(result)
            },
            seconds: outcome.seconds, peakFootprint: outcome.peakFootprint, stderrTail: outcome.stderrTail)
    }

    /// Starts `launch`, sends `initialize` and then `call`, and waits for the reply to `call`.
    /// The process is killed afterwards.
    public func request(_ call: ExtensionRequest.Call, of launch: ExtensionLaunch) -> Outcome<ExtensionReply> {
        let outcome = run(launch, call: call)
        return Outcome(
            result: outcome.result.flatMap {
                guard case .replied(let reply) = $0 else { return .failure(.notStarted("no reply")) }
                return .success(reply)
            },
            seconds: outcome.seconds, peakFootprint: outcome.peakFootprint, stderrTail: outcome.stderrTail)
    }

    private func run(_ launch: ExtensionLaunch, call: ExtensionRequest.Call?) -> Outcome<Answer> {
        let method = call?.method ?? .initialize
        let process: ExtensionProcess
        do {
            process = try ExtensionProcess.start(launch, limits: limits, sampleInterval: sampleInterval, spawner: spawner)
        } catch {
            return Outcome(result: .failure(.notStarted(error.description)), seconds: 0, peakFootprint: nil, stderrTail: [])
        }
        let id = RequestID(1)
        if let call { process.send(id, call) }
        let deadline = process.started + .nanoseconds(Int64(limits.timeout(for: method) * 1_000_000_000))

        var result: Result<Answer, Failure>?
        while result == nil {
            guard let event = process.next(until: deadline) else {
                // The deadline came, or the process ended with nothing left to say.
                let elapsed = process.elapsed
                result = .failure(.failed(
                    limits.verdict(on: method, elapsed: elapsed, footprintBytes: nil) ?? .timedOut(elapsed: elapsed)))
                break
            }
            switch event {
            case .sampled(let bytes):
                if let failure = limits.verdict(on: method, elapsed: process.elapsed, footprintBytes: bytes) {
                    result = .failure(.failed(failure))
                }
            case .initialized(.success(let initialize)):
                if call == nil { result = .success(.initialized(initialize)) }
            case .initialized(.failure(let failure)):
                result = .failure(.failed(failure))
            case .replied(_, let reply, let footprint):
                result = limits.verdict(onFootprint: footprint).map { .failure(.failed($0)) } ?? .success(.replied(reply))
            case .failed(_, let failure):
                result = .failure(.failed(failure))
            case .stopped(let reason):
                result = .failure(.failed(.protocolError(reason)))
            case .stderr, .note, .exited:
                break
            }
        }
        let seconds = process.elapsed
        process.kill()
        // stderr read while the process was reaped counts too.
        return Outcome(
            result: result!, seconds: seconds, peakFootprint: process.peakFootprint, stderrTail: process.stderrTail)
    }
}
