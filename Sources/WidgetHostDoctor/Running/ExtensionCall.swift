import Foundation
import WidgetHostDaemon
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// One request to a freshly started extension process, measured the way the host measures
/// it: `initialize` then the request, written as soon as the process starts, and the clock
/// running from the start (a cold start is what a device sees after the idle stop). The
/// footprint is sampled while it runs and once more when the reply arrives; past the
/// deadline or the memory limit the process group is killed, as the host does.
struct ExtensionCall {
    enum Failure: Error, Sendable, Hashable {
        case spawn(String)
        case timedOut
        case memoryLimitExceeded(bytes: Int)
        case crashed(String)
        case protocolError(String)
    }

    struct Outcome: Sendable {
        var result: Result<JSONValue, Failure>
        /// From starting the process to the reply (or to the failure).
        var seconds: Double
        /// The highest footprint seen, nil if the process was gone before the first sample.
        var peakFootprint: Int?
        /// The last lines the extension wrote to stderr, to explain a failure.
        var stderrTail: [String]
    }

    var launch: ExtensionLaunch
    var deadline: TimeInterval
    var memoryLimit: Int
    var sampleInterval: TimeInterval
    var maxLineBytes: Int

    /// Sends `initialize` and then `method` (unless it is `initialize`), and waits for the
    /// reply to the last one.
    func run(_ method: ExtensionMethod, params: JSONValue?) -> Outcome {
        let start = ContinuousClock.now
        let process: SpawnedProcess
        do {
            process = try ProcessSpawner.spawn(executable: launch.executable, environment: launch.environment)
        } catch {
            return Outcome(result: .failure(.spawn(error.description)), seconds: 0, peakFootprint: nil, stderrTail: [])
        }
        var session = Session(process: process, call: self, start: start)
        defer { session.end() }
        let initialize = JSONRPCMessage.request(
            id: .string("initialize"), method: ExtensionMethod.initialize.rawValue,
            params: try? JSONValue(encoding: InitializeParams()))
        var lines = [initialize]
        let awaited: JSONRPCID = method == .initialize ? .string("initialize") : .number(1)
        if method != .initialize {
            lines.append(.request(id: .number(1), method: method.rawValue, params: params))
        }
        session.write(lines)
        let result = session.await(awaited, method: method)
        return Outcome(
            result: result, seconds: session.elapsed, peakFootprint: session.peak, stderrTail: session.stderrTail)
    }
}

/// The I/O of one process: pipes polled with a timeout of one sampling interval.
private struct Session {
    let process: SpawnedProcess
    let call: ExtensionCall
    let start: ContinuousClock.Instant
    var peak: Int?
    var stderrTail: [String] = []
    private var stdoutFramer: LineFramer
    private var stderrFramer = LineFramer(maxLineBytes: 4096)
    private var stdoutOpen = true
    private var stderrOpen = true
    private var exitStatus: ExitStatus?
    private var pending: [LineFramer.Frame] = []
    private var finishedAt: ContinuousClock.Instant?
    private let footprints = FootprintReader()

    init(process: SpawnedProcess, call: ExtensionCall, start: ContinuousClock.Instant) {
        self.process = process
        self.call = call
        self.start = start
        self.stdoutFramer = LineFramer(maxLineBytes: call.maxLineBytes)
        for descriptor in [process.stdoutRead, process.stderrRead] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
    }

    var elapsed: Double {
        let duration = start.duration(to: finishedAt ?? .now)
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    func write(_ messages: [JSONRPCMessage]) {
        var bytes = Data()
        for message in messages { bytes += (try? message.encodedLine()) ?? Data() }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(process.stdinWrite, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                // EPIPE: the process is already gone; the loop below reports how it ended.
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    mutating func await(_ id: JSONRPCID, method: ExtensionMethod) -> Result<JSONValue, ExtensionCall.Failure> {
        while true {
            sample()
            if let peak, peak > call.memoryLimit { return finish(.failure(.memoryLimitExceeded(bytes: peak))) }
            if elapsed >= call.deadline { return finish(.failure(.timedOut)) }
            pollPipes(timeout: min(call.sampleInterval, max(0, call.deadline - elapsed)))
            if let result = takeAnswer(to: id, method: method) { return finish(result) }
            reap()
            if let exitStatus {
                // Whatever it wrote before exiting is still in the pipe.
                pollPipes(timeout: 0)
                if let result = takeAnswer(to: id, method: method) { return finish(result) }
                return finish(.failure(.crashed("it \(exitStatus) before answering \(method.rawValue)")))
            }
        }
    }

    private mutating func takeAnswer(to id: JSONRPCID, method: ExtensionMethod)
        -> Result<JSONValue, ExtensionCall.Failure>?
    {
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .oversized(let count):
                return .failure(.protocolError("it wrote a \(count)-byte line to stdout, over the limit"))
            case .line(let bytes):
                guard let result = answer(to: id, method: method, in: JSONRPCMessage.parse(bytes)) else { continue }
                // The host checks the footprint once more when the reply arrives.
                sample()
                if case .success = result, let peak, peak > call.memoryLimit {
                    return .failure(.memoryLimitExceeded(bytes: peak))
                }
                return result
            }
        }
        return nil
    }

    /// The result for `id`, a failure, or nil for a line that is not the awaited answer yet.
    private func answer(to id: JSONRPCID, method: ExtensionMethod, in parsed: JSONRPCMessage.Parsed)
        -> Result<JSONValue, ExtensionCall.Failure>?
    {
        switch parsed {
        case .message(.response(let replyID, let result)):
            if replyID == id { return .success(result) }
            if replyID == .string("initialize") { return nil }
            return .failure(.protocolError("it replied with id \(replyID), which was never sent (expected \(id))"))
        case .message(.errorResponse(let replyID, let error)):
            let which = replyID == .string("initialize") ? "initialize" : method.rawValue
            return .failure(.protocolError("it answered \(which) with error \(error.code): \(error.message)"))
        case .message(.request), .message(.notification):
            return nil
        case .invalid(_, let error):
            return .failure(.protocolError("its stdout is not JSON-RPC (\(error.message))"))
        }
    }

    private mutating func finish(_ result: Result<JSONValue, ExtensionCall.Failure>)
        -> Result<JSONValue, ExtensionCall.Failure>
    {
        finishedAt = .now
        return result
    }

    private var isRunning: Bool { exitStatus == nil }

    private mutating func sample() {
        guard isRunning, let bytes = footprints.footprint(ofProcessGroupLeader: process.pid) else { return }
        peak = max(peak ?? 0, bytes)
    }

    private mutating func reap() {
        guard isRunning else { return }
        var status: CInt = 0
        if waitpid(process.pid, &status, WNOHANG) == process.pid { exitStatus = ExitStatus(waitStatus: status) }
    }

    private mutating func pollPipes(timeout: TimeInterval) {
        var descriptors = [
            pollfd(fd: stdoutOpen ? process.stdoutRead : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stderrOpen ? process.stderrRead : -1, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&descriptors, 2, CInt((timeout * 1000).rounded(.up)))
        if stderrOpen {
            let (bytes, open) = drain(process.stderrRead)
            stderrOpen = open
            for case .line(let line) in stderrFramer.append(bytes) { keep(String(decoding: line, as: UTF8.self)) }
        }
        if stdoutOpen {
            let (bytes, open) = drain(process.stdoutRead)
            stdoutOpen = open
            pending += stdoutFramer.append(bytes)
        }
    }

    private mutating func keep(_ line: String) {
        stderrTail.append(line)
        if stderrTail.count > 8 { stderrTail.removeFirst() }
    }

    /// Everything readable now, and whether the pipe is still open.
    private func drain(_ descriptor: CInt) -> ([UInt8], Bool) {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                collected += buffer[0..<count]
                continue
            }
            if count < 0, errno == EINTR { continue }
            return (collected, count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        }
    }

    /// Kills what is left of the process group and reaps the leader.
    mutating func end() {
        kill(-process.pid, SIGKILL)
        kill(process.pid, SIGKILL)
        if isRunning {
            var status: CInt = 0
            while waitpid(process.pid, &status, 0) < 0, errno == EINTR {}
        }
        for descriptor in [process.stdinWrite, process.stdoutRead, process.stderrRead] { close(descriptor) }
    }
}
