import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol

/// Starts an extension once to ask `initialize` which kinds and families it offers — the
/// widget gallery's question — and stops it as soon as it has answered. What an answer means
/// and the sentences for a bundle that gives none live here once: the daemon's catalog runs
/// probes on its event loop (all bundles at once), the harness runs them synchronously.
public enum InitializeProbe {
    /// How long a probe waits for the answer, whatever `timeline_timeout` says.
    public static let timeout: TimeInterval = 5

    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The executable could not be started; the sentence says why.
        case notStarted(String)
        case failed(ExtensionFailure)
        case noWidgets

        /// What is wrong, as it follows "EXECUTABLE: ".
        public var description: String {
            switch self {
            case .notStarted(let sentence): sentence
            case .failed(.timedOut): "it did not answer initialize within \(Int(InitializeProbe.timeout)) s"
            case .failed(.crashed(let detail)): "it \(detail)"
            case .failed(.protocolError(let detail)): detail
            case .failed(.memoryLimitExceeded(let bytes)):
                "its footprint reached \(bytes / 1_048_576) MiB before answering initialize"
            case .noWidgets:
                "initialize listed no widgets and no controls; add at least one Widget or ControlWidget to the WidgetBundle's body"
            }
        }
    }

    /// The catalog's reading of an answer: the widgets (and controls, and Live Activities), or
    /// why the bundle is skipped. A bundle of Live Activities only is loaded.
    public static func widgets(_ answer: Result<InitializeResult, Failure>) -> Result<InitializeResult, Failure> {
        // A bundle of Control widgets only (iOS 18), or of Live Activities only, is loaded too.
        answer.flatMap { answer in
            answer.widgets.isEmpty && (answer.controls ?? []).isEmpty && (answer.activities ?? []).isEmpty
                ? .failure(.noWidgets) : .success(answer)
        }
    }

    /// Why the bundle was skipped, for `extensions` and the log: the executable, what is
    /// wrong, and (unless the fix is already said) how to see it by hand.
    public static func skipReason(_ failure: Failure, executable: String) -> String {
        guard failure != .noWidgets else { return "\(executable): \(failure)" }
        return "\(executable): \(failure); run it by hand with "
            + "echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}' | \(executable)"
    }

    /// The limits a probe runs under: the host's, with `timeout` for the answer.
    public static func limits(_ limits: ExtensionLimits) -> ExtensionLimits {
        var limits = limits
        limits.timelineTimeout = timeout
        return limits
    }

    /// The probe on the synchronous face: starts `launch`, waits for `initialize`'s answer
    /// and kills the process.
    public static func run(
        _ launch: ExtensionLaunch, limits: ExtensionLimits, spawner: ProcessSpawner? = nil
    ) -> Result<InitializeResult, Failure> {
        let outcome = ColdCall(limits: Self.limits(limits), sampleInterval: nil, spawner: spawner).initialize(launch)
        switch outcome.result {
        case .success(let result): return widgets(.success(result))
        case .failure(.notStarted(let sentence)): return .failure(.notStarted(sentence))
        case .failure(.failed(let failure)): return .failure(.failed(failure))
        }
    }
}
