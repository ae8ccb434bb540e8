import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// One extension process's side of the extension channel, without I/O: it is fed what the
/// process wrote and how it ended, and answers with what to write and what happened — the
/// sans-I/O shape of the core, for one process. `initialize` goes first, then the requests, in
/// order; the first one not yet answered is the one running (the core writes more than one
/// only to an extension that declared `pipelining`, which answers in order). A reply is
/// matched to the running request by id and decoded into the core's `ExtensionReply`. Both
/// faces of the runner drive one session per process: the event-loop face in the daemon,
/// `ExtensionProcess` for the harness and the doctor.
///
/// It never judges time or memory: deadlines and footprints are the core's rules
/// (`ExtensionLimits.verdict`). It reports what the process did, in the words the core uses.
public struct ExtensionSession: Sendable {
    /// The id of the `initialize` request every process hears first (docs/protocol.md).
    public static let initializeID = JSONRPCID.string("initialize-1")

    public enum Action: Sendable, Hashable {
        /// Write these bytes to the process's stdin.
        case write([UInt8])
        /// The answer to `initialize` (the catalog's question), or why there is none.
        case initialized(Result<InitializeResult, ExtensionFailure>)
        case replied(RequestID, ExtensionReply)
        case failed(RequestID, ExtensionFailure)
        /// One line the process wrote to stderr, for the log.
        case stderr(String)
        /// The process is out of step with the protocol (a reply while nothing was asked):
        /// stop it, or its next stray line would be charged to the next request.
        case stop(reason: String)
        /// Worth a line in the log and nothing more: a message the host ignores, or a line
        /// that could not be charged to any request.
        case note(String)
    }

    private enum InitializeState: Sendable { case notSent, awaited, answered }

    private struct Running: Sendable {
        var id: RequestID
        var method: ExtensionMethod
    }

    /// The limits that shape the channel (the longest line is `max_timeline_bytes + 64 KiB`)
    /// and judge how the process ended.
    public let limits: ExtensionLimits
    private var stdout: LineFramer
    private var stderr = LineFramer(maxLineBytes: 64 * 1024)
    private var initialize = InitializeState.notSent
    /// Written and not yet answered, in order; the first is the one running (a few at most:
    /// `ExtensionQueue.aheadLimit` behind it).
    private var written: [Running] = []
    private var running: Running? { written.first }
    private var reportedOversize = false
    /// After a protocol error the process is condemned: nothing it says counts any more.
    private var condemned = false
    public private(set) var exitStatus: ExitStatus?

    public init(limits: ExtensionLimits) {
        self.limits = limits
        stdout = LineFramer(maxLineBytes: Self.maxLineBytes(limits))
    }

    public static func maxLineBytes(_ limits: ExtensionLimits) -> Int {
        limits.maxTimelineBytes + 64 * 1024
    }

    /// The request running now, if any.
    public var runningRequest: RequestID? { running?.id }
    public var isAwaitingInitialize: Bool { initialize == .awaited }
    /// Something was asked and is not answered yet.
    public var isAwaitingAnswer: Bool { running != nil || initialize == .awaited }

    // MARK: - What the host asks

    /// `initialize`, the first line every process hears.
    public mutating func start() -> [Action] {
        precondition(initialize == .notSent, "initialize is sent once per process")
        initialize = .awaited
        return [.write(Self.initializeLine)]
    }

    /// `initialize`'s line, the same for every process (its params are the protocol's
    /// revision), made once: made per process it was ~29 k instructions of a cold reload,
    /// right after the spawn (callgrind, issue 16).
    public static let initializeLine: [UInt8] = Array(
        (try? JSONRPCMessage.request(
            id: initializeID, method: ExtensionMethod.initialize.rawValue,
            params: try? JSONValue(encoding: InitializeParams())).encodedLine()) ?? Data())

    /// One request; it runs once those written before it are answered.
    public mutating func send(_ id: RequestID, _ call: ExtensionRequest.Call) -> [Action] {
        written.append(Running(id: id, method: call.method))
        if let line = Self.requestLine(id, call) { return [.write(line)] }
        let params: JSONValue?
        switch call {
        case .placeholder(let value): params = try? JSONValue(encoding: value)
        case .snapshot(let value): params = try? JSONValue(encoding: value)
        case .timeline(let value): params = try? JSONValue(encoding: value)
        case .perform(let value): params = try? JSONValue(encoding: value)
        case .options(let value): params = try? JSONValue(encoding: value)
        case .controlValue(let value): params = try? JSONValue(encoding: value)
        case .activityRender(let value): params = try? JSONValue(encoding: value)
        }
        return [write(.request(id: .number(id.value), method: call.method.rawValue, params: params))]
    }

    /// The request's line with its params written straight from their value
    /// (`JSONRPCRequestLine`); nil when they need Foundation's encoder.
    private static func requestLine(_ id: RequestID, _ call: ExtensionRequest.Call) -> [UInt8]? {
        let method = call.method.rawValue
        return switch call {
        case .placeholder(let value): JSONRPCRequestLine.bytes(id: id.value, method: method, params: value)
        case .snapshot(let value): JSONRPCRequestLine.bytes(id: id.value, method: method, params: value)
        case .timeline(let value): JSONRPCRequestLine.bytes(id: id.value, method: method, params: value)
        case .perform(let value): JSONRPCRequestLine.bytes(id: id.value, method: method, params: value)
        case .options(let value): JSONRPCRequestLine.bytes(id: id.value, method: method, params: value)
        case .controlValue(let value): JSONRPCRequestLine.bytes(id: id.value, method: method, params: value)
        case .activityRender(let value): JSONRPCRequestLine.bytes(id: id.value, method: method, params: value)
        }
    }

    /// The host gave up on whatever runs (it is killing the process): nothing the process
    /// says from now on is charged to anything.
    public mutating func abandon() {
        written.removeAll()
        if initialize == .awaited { initialize = .answered }
        condemned = true
    }

    // MARK: - What the process did

    public mutating func receive(stdout bytes: some Sequence<UInt8>) -> [Action] {
        receive(stdout.append(bytes))
    }

    /// The same for a read buffer's bytes (the daemon's pipes): `LineFramer`'s `memchr` path.
    /// Through the generic one above, framing ran unspecialised, byte by byte: 14,600
    /// instructions for a 187-byte reply (issue 16, callgrind).
    public mutating func receive(stdout bytes: UnsafeRawBufferPointer) -> [Action] {
        receive(stdout.append(bytes))
    }

    private mutating func receive(_ frames: [LineFramer.Frame]) -> [Action] {
        var actions: [Action] = []
        for frame in frames {
            switch frame {
            case .line(let line):
                guard !condemned else { continue }
                if initialize == .awaited {
                    // Replies come in order: this is initialize's, or the process is out of step.
                    actions += initializeReply(line)
                    continue
                }
                if let reply = directReply(line) {
                    actions.append(reply)
                    continue
                }
                actions += handle(JSONRPCMessage.parse(line), byteCount: line.count)
            case .oversized(let count):
                if !reportedOversize { actions += oversized(count) }
                reportedOversize = false
            }
        }
        if stdout.isDiscarding, !reportedOversize {
            // Said as soon as the limit is passed: a flood may never send its newline.
            reportedOversize = true
            actions += oversized(stdout.maxLineBytes + 1)
        }
        return actions
    }

    public mutating func receive(stderr bytes: some Sequence<UInt8>) -> [Action] {
        stderr.append(bytes).map(Self.stderrLine)
    }

    /// stdout reached its end. An unterminated last line is what a process leaves when it
    /// dies mid-reply; the exit status says more than the half line would.
    public mutating func endOfStdout() -> [Action] {
        guard case .line(let bytes)? = stdout.finish().first else { return [] }
        return [.stderr("[stdout ended with \(bytes.count) bytes of an unfinished line]")]
    }

    public mutating func endOfStderr() -> [Action] {
        stderr.finish().map(Self.stderrLine)
    }

    /// The process is gone and reaped. Feed everything it wrote first: a reply still in the
    /// pipe counts. `memoryKillFootprint`: its cgroup says the kernel killed it for memory.
    public mutating func exited(_ status: ExitStatus, memoryKillFootprint: Int? = nil) -> [Action] {
        exitStatus = status
        let limits = limits
        return failAwaited { limits.verdict(onExit: status.description, before: $0, memoryKillFootprint: memoryKillFootprint) }
    }

    /// The kernel killed a process in the extension's cgroup for `memory.max` (a child,
    /// say) while the extension lives on: what is awaited failed for memory.
    public mutating func killedForMemory(footprintBytes: Int) -> [Action] {
        guard isAwaitingAnswer else { return [] }
        return failAwaited { _ in .memoryLimitExceeded(footprintBytes: footprintBytes) }
    }

    // MARK: - Lines

    /// The running request's reply decoded in one pass (`JSONRPCMessage.decodeTimelineResult`,
    /// `decodeResult`).
    /// Anything else takes the long way through `handle`, which names what was wrong.
    private mutating func directReply(_ line: [UInt8]) -> Action? {
        guard let request = running else { return nil }
        let reply: ExtensionReply
        switch request.method {
        case .timeline:
            guard let (id, payload) = JSONRPCMessage.decodeTimelineResult(line),
                id == .number(request.id.value)
            else { return nil }
            reply = .timeline(payload, byteCount: line.count)
        case .placeholder, .snapshot:
            guard let (id, entry) = JSONRPCMessage.decodeResult(line, as: TimelineEntryPayload.self),
                id == .number(request.id.value)
            else { return nil }
            reply = .entry(entry)
        case .initialize, .intentPerform, .intentOptions, .controlValue, .activityRender:
            // Rare next to timelines: the long way is fine.
            return nil
        }
        written.removeFirst()
        return .replied(request.id, reply)
    }

    /// The first line while `initialize` is awaited: a line seen before from a process that
    /// answered it (`InitializeReplies`), or the long way, whose success is kept.
    private mutating func initializeReply(_ line: [UInt8]) -> [Action] {
        if let known = InitializeReplies.shared.result(for: line) {
            initialize = .answered
            return [.initialized(.success(known))]
        }
        let actions = handle(JSONRPCMessage.parse(line), byteCount: line.count)
        if actions.count == 1, case .initialized(.success(let result)) = actions[0] {
            InitializeReplies.shared.remember(result, for: line)
        }
        return actions
    }

    private mutating func handle(_ parsed: JSONRPCMessage.Parsed, byteCount: Int) -> [Action] {
        switch parsed {
        case .message(.response(let id, let result)):
            if id == Self.initializeID, initialize == .awaited {
                initialize = .answered
                let outcome = ReplyDecoding.initialize(result)
                guard case .failure(let failure) = outcome else { return [.initialized(outcome)] }
                return [.initialized(outcome)] + failAwaited { _ in failure }
            }
            if let request = running, id == .number(request.id.value) {
                written.removeFirst()
                switch ReplyDecoding.reply(to: request.method, result: result, byteCount: byteCount) {
                case .success(let reply): return [.replied(request.id, reply)]
                case .failure(let failure):
                    condemned = true
                    return [.failed(request.id, failure)]
                }
            }
            return outOfStep(id)
        case .message(.errorResponse(let id, let error)):
            if initialize == .awaited, id == Self.initializeID || (id == nil && running == nil) {
                return failAwaited { _ in .protocolError("initialize answered with error \(error.code): \(error.message)") }
            }
            if let request = running, id == nil || id == .number(request.id.value) {
                return failAwaited { method in
                    .protocolError("\(method.rawValue) answered with error \(error.code): \(error.message)")
                }
            }
            return outOfStep(id)
        case .message(.request(_, let method, _)), .message(.notification(let method, _)):
            return [.note("ignored message \"\(method)\" from the extension")]
        case .invalid(_, let error):
            guard isAwaitingAnswer else { return [.note("invalid stdout line: \(error.message)")] }
            return failAwaited { _ in .protocolError("stdout line is not a JSON-RPC message (\(error.message))") }
        }
    }

    /// A reply for an id that is not awaited.
    private mutating func outOfStep(_ id: JSONRPCID?) -> [Action] {
        let shown = id.map { "\($0)" } ?? "null"
        if let request = running {
            return failAwaited { _ in .protocolError("reply for unknown id \(shown); the running request is \(request.id.value)") }
        }
        if initialize == .awaited {
            return failAwaited { _ in .protocolError("reply for unknown id \(shown); initialize is awaited") }
        }
        condemned = true
        return [.stop(reason: "reply with id \(shown) while no request was running; stopping the extension")]
    }

    private mutating func oversized(_ count: Int) -> [Action] {
        let sentence = "stdout line longer than max_timeline_bytes + 64 KiB (\(count)+ bytes); reply with one line per message"
        guard isAwaitingAnswer else { return [.note(sentence)] }
        return failAwaited { _ in .protocolError(sentence) }
    }

    /// Fails what is awaited — `initialize`, the running request, or both — each with the
    /// failure for its method. Nothing the process says afterwards counts.
    private mutating func failAwaited(_ failure: (ExtensionMethod) -> ExtensionFailure) -> [Action] {
        var actions: [Action] = []
        if initialize == .awaited {
            initialize = .answered
            actions.append(.initialized(.failure(failure(.initialize))))
        }
        if let request = running {
            actions.append(.failed(request.id, failure(request.method)))
        }
        // Those written behind it are the core's to send again, to a fresh process.
        written.removeAll()
        condemned = true
        return actions
    }

    private func write(_ message: JSONRPCMessage) -> Action {
        .write(Array((try? message.encodedLine()) ?? Data()))
    }

    private static func stderrLine(_ frame: LineFramer.Frame) -> Action {
        switch frame {
        case .line(let bytes): .stderr(String(decoding: bytes, as: UTF8.self))
        case .oversized(let count): .stderr("[\(count) bytes on one stderr line, not shown]")
        }
    }
}
