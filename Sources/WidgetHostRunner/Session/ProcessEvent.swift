import WidgetHostCore
import WidgetHostProtocol

/// What one extension process did, as either face of the runner reports it.
public enum ProcessEvent: Sendable, Hashable {
    /// The answer to `initialize`, or why there is none.
    case initialized(Result<InitializeResult, ExtensionFailure>)
    /// A reply, with the footprint read when it arrived (the core checks it once more).
    case replied(RequestID, ExtensionReply, footprintBytes: Int?)
    case failed(RequestID, ExtensionFailure)
    /// A footprint sample (RssAnon + VmSwap of the process and its children), taken every
    /// sampling interval while something is awaited.
    case sampled(bytes: Int)
    /// One line from stderr (the event-loop face, for the log).
    case stderr(String)
    /// Something for the log only: a message the host ignores, a line no request is charged with.
    case note(String)
    /// Killed for being out of step with the protocol; the reason, for the log.
    case stopped(reason: String)
    /// The process is gone and reaped.
    case exited(ExitStatus)

    /// The core's event for this, with `running` the request the process is working on.
    public func hostEvent(running: RequestID?) -> HostEvent? {
        switch self {
        case .replied(let id, let reply, let footprint): .extensionReplied(id, reply, footprintBytes: footprint)
        case .failed(let id, let failure): .extensionFailed(id, failure)
        case .sampled(let bytes): running.map { .footprintSampled($0, bytes: bytes) }
        case .initialized, .stderr, .note, .stopped, .exited: nil
        }
    }
}
