import Foundation
import WidgetHostProtocol

/// A small blocking JSON-RPC client for widgethostd's control socket, used by the
/// `widgethost` CLI and by `WidgetCenter`. One connection, one caller at a time.
///
/// ```swift
/// let client = try ControlClient(socketPath: ControlSocketPath.resolve(environment: env))
/// let result: ReloadResult = try client.call(.reloadTimelines, params: ReloadTimelinesParams(kind: "BirthdayHomeWidget"))
/// ```
public final class ControlClient {
    /// The longest line the client accepts from the daemon.
    public static let maxLineBytes = 16 * 1024 * 1024
    public static let defaultTimeout: Duration = .seconds(30)

    public let socketPath: String
    /// How long a call waits for its reply.
    public var timeout: Duration

    private let socket: UnixStreamSocket
    private var framer = LineFramer(maxLineBytes: ControlClient.maxLineBytes)
    private var pendingLines: [[UInt8]] = []
    private var nextID = 1
    private var closed = false

    /// Connects now; throws `ControlClientError.daemonUnreachable` if nobody listens at `socketPath`.
    public init(socketPath: String, timeout: Duration = ControlClient.defaultTimeout) throws(ControlClientError) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.socket = try UnixStreamSocket(connectingTo: socketPath)
    }

    /// Takes over a connection on which requests with ids 1 to `requestsSent` were already
    /// written, their replies unread: the `widgethost` front hands its reload over so (`reply(to:)`).
    public init(adopting descriptor: Int32, socketPath: String, timeout: Duration, requestsSent: Int) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.socket = UnixStreamSocket(adopting: descriptor, path: socketPath)
        self.nextID = requestsSent + 1
    }

    public func close() {
        socket.close()
        closed = true
    }

    /// Calls `method` with `params` and decodes the reply's result. Notifications that
    /// arrive meanwhile are skipped; a JSON-RPC error comes back as `ControlClientError.rpc`.
    public func call<Result: Decodable>(
        _ method: ControlMethod, params: some Encodable, as type: Result.Type = Result.self
    ) throws(ControlClientError) -> Result {
        let encoded: JSONValue
        do { encoded = try JSONValue(encoding: params) } catch {
            throw .invalidReply(method: method.rawValue, detail: "could not encode params: \(error)")
        }
        return try call(method.rawValue, params: encoded)
    }

    /// Calls a method that takes no params (`extensions`, `rescan`, `status` for all).
    public func call<Result: Decodable>(
        _ method: ControlMethod, as type: Result.Type = Result.self
    ) throws(ControlClientError) -> Result {
        try call(method.rawValue, params: nil)
    }

    /// Sends `subscribe`, then hands every `event` notification to `onEvent` until it
    /// returns false or the daemon closes the connection. `idleTimeout` bounds the wait for
    /// each notice (nil: wait as long as it takes — events may be hours apart).
    @discardableResult
    public func subscribe(
        idleTimeout: Duration? = nil, onEvent: (HostNotice) throws -> Bool
    ) throws -> SubscriptionEnd {
        let _: SubscribeResult = try call(.subscribe)
        while true {
            let deadline = idleTimeout.map { ContinuousClock.now + $0 }
            guard let line = try nextLine(until: deadline, method: ControlMethod.subscribe.rawValue) else {
                return .closed
            }
            guard case .message(.notification(let method, let params)) = JSONRPCMessage.parse(line),
                method == ControlMethod.eventNotification
            else { continue }
            let notice: HostNotice
            do { notice = try (params ?? .null).decode(as: HostNotice.self) } catch {
                throw ControlClientError.invalidReply(
                    method: ControlMethod.eventNotification, detail: "notice does not decode: \(error)")
            }
            if try !onEvent(notice) { return .stopped }
        }
    }

    public enum SubscriptionEnd: Sendable, Hashable {
        /// The closure returned false.
        case stopped
        /// The daemon closed the connection (it stopped or restarted).
        case closed
    }

    /// The reply to request `id` (of `method`), sent before this client took the connection
    /// over, read and decoded as `call` would; waits at most `within` (the timeout's rest).
    public func reply<Result: Decodable>(
        to id: Int, of method: ControlMethod, within: Duration, as type: Result.Type = Result.self
    ) throws(ControlClientError) -> Result {
        try awaitReply(to: .number(id), method: method.rawValue, deadline: ContinuousClock.now + within)
    }

    // MARK: - Wire

    private func call<Result: Decodable>(_ method: String, params: JSONValue?) throws(ControlClientError) -> Result {
        let id = JSONRPCID.number(nextID)
        nextID += 1
        let line: Data
        do { line = try JSONRPCMessage.request(id: id, method: method, params: params).encodedLine() } catch {
            throw .invalidReply(method: method, detail: "could not encode the request: \(error)")
        }
        try socket.write(Array(line))
        return try awaitReply(to: id, method: method, deadline: ContinuousClock.now + timeout)
    }

    private func awaitReply<Result: Decodable>(
        to id: JSONRPCID, method: String, deadline: ContinuousClock.Instant
    ) throws(ControlClientError) -> Result {
        while true {
            guard let line = try nextLine(until: deadline, method: method) else {
                throw .connectionClosed(path: socketPath, method: method)
            }
            // The common reply in one pass, bytes to `Result` (`decodeResult`); anything else —
            // an error, a notification, another id, a result that does not decode — the long
            // way, which says precisely what is wrong. The long way (bytes → JSONValue → bytes
            // → Result) cost `widgethost reload` about 0.6 M instructions more (callgrind, issue 16).
            if let reply = JSONRPCMessage.decodeResult(line, as: Result.self), reply.id == id { return reply.result }
            switch JSONRPCMessage.parse(line) {
            case .message(.response(let replyID, let result)) where replyID == id:
                do { return try result.decode(as: Result.self) } catch {
                    throw .invalidReply(method: method, detail: "result does not decode: \(Self.describe(error))")
                }
            case .message(.errorResponse(let replyID, let error)) where replyID == id || replyID == nil:
                // A null id is the daemon answering a line it could not read: ours.
                throw .rpc(error)
            case .message, .invalid:
                continue  // Notifications, replies to other ids, noise: not ours.
            }
        }
    }

    /// The next complete line, or nil at end of stream.
    private func nextLine(until deadline: ContinuousClock.Instant?, method: String) throws(ControlClientError) -> [UInt8]? {
        while pendingLines.isEmpty {
            if closed { return nil }
            switch try socket.read(until: deadline) {
            case .bytes(let bytes):
                try take(framer.append(bytes), method: method)
            case .endOfStream:
                closed = true
                try take(framer.finish(), method: method)
            case .timedOut:
                throw .timedOut(path: socketPath, method: method, seconds: Self.seconds(timeout))
            }
        }
        return pendingLines.removeFirst()
    }

    private func take(_ frames: [LineFramer.Frame], method: String) throws(ControlClientError) {
        for frame in frames {
            switch frame {
            case .line(let line): pendingLines.append(line)
            case .oversized(let count):
                throw .invalidReply(
                    method: method, detail: "a line of \(count) bytes is over the \(Self.maxLineBytes)-byte limit")
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            return "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "(top level)" }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }
}
