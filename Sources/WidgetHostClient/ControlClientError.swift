#if canImport(Glibc)
import Glibc
#endif
import WidgetHostProtocol

/// Why a control-channel call failed. The description is a sentence for a person;
/// `hint` says what to do about it, when there is something to do.
public enum ControlClientError: Error, Sendable, CustomStringConvertible {
    /// Connecting failed: no socket there, nobody listening, or no permission.
    /// `reason` is the errno text (`No such file or directory`); `errno` its number.
    case daemonUnreachable(path: String, reason: String, errno: Int32 = 0)
    /// The daemon answered with a JSON-RPC error; its message is the description.
    case rpc(JSONRPCError)
    /// No reply within the client's timeout.
    case timedOut(path: String, method: String, seconds: Double)
    /// The daemon closed the connection before replying.
    case connectionClosed(path: String, method: String)
    /// The reply was not what the method returns, or the stream was not JSON-RPC.
    case invalidReply(method: String, detail: String)
    /// Reading from or writing to the socket failed after connecting.
    case io(path: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case .daemonUnreachable(let path, let reason, _):
            "cannot reach widgethostd at \(path) (\(reason))"
        case .rpc(let error):
            error.message
        case .timedOut(let path, let method, let seconds):
            "widgethostd at \(path) did not answer \(method) within \(Self.format(seconds: seconds))"
        case .connectionClosed(let path, let method):
            "widgethostd at \(path) closed the connection before answering \(method)"
        case .invalidReply(let method, let detail):
            "widgethostd sent an unexpected reply to \(method): \(detail)"
        case .io(let path, let operation, let reason):
            "\(operation) on \(path) failed (\(reason))"
        }
    }

    /// What to do next, in one clause, or nil when the description says it all.
    public var hint: String? {
        switch self {
        case .daemonUnreachable(_, _, let code) where code == EACCES || code == EPERM:
            "ask for access: the socket is group widgethost (`sudo usermod -aG widgethost $USER`, then log in again)"
        case .daemonUnreachable:
            "start it with `make run` or `systemctl start widgethostd.socket`"
        case .timedOut:
            "check `systemctl status widgethostd` or its log"
        default:
            nil
        }
    }

    /// The JSON-RPC error the daemon sent, if that is what this is.
    public var rpcError: JSONRPCError? {
        if case .rpc(let error) = self { return error }
        return nil
    }

    private static func format(seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
