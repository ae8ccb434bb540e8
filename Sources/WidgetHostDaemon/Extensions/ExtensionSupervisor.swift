import Foundation
import Logging
import NIOCore
import WidgetHostCore
import WidgetHostProtocol

/// Executes the core's extension effects: starts processes on demand, sends each request
/// as a JSON-RPC line, samples footprint while it runs, and turns what comes back into
/// core events. The rules (deadlines, limits, what a failure means) are the core's; this
/// only measures and reports. Confined to the runtime's event loop.
final class ExtensionSupervisor: @unchecked Sendable {
    struct Running {
        var request: ExtensionRequest
        var process: ExtensionProcess
        var sampler: RepeatedTask?
    }

    let eventLoop: any EventLoop
    let limits: ExtensionLimits
    let logger: Logger
    let footprints = FootprintReader()
    let processTable: ProcessTable
    /// Called with every event for the core (on the loop).
    var report: (HostEvent) -> Void = { _ in }
    /// A cgroup per process (`limits.cgroup = auto` where delegation allows it), or nil.
    var cgroups: CgroupPlacement?

    private(set) var launches: [String: ExtensionLaunch] = [:]
    private var processes: [String: ExtensionProcess] = [:]
    private var running: [String: Running] = [:]
    private var initializeCounter = 0

    init(eventLoop: any EventLoop, limits: ExtensionLimits, logger: Logger) {
        self.eventLoop = eventLoop
        self.limits = limits
        self.logger = logger
        self.processTable = ProcessTable(eventLoop: eventLoop)
    }

    /// Bundles that can be started, by bundle id (after a scan).
    func setLaunches(_ launches: [String: ExtensionLaunch]) {
        self.launches = launches
    }

    var runningProcessCount: Int { processes.count }

    /// A request is out with an extension (the virtual clock waits for it before jumping).
    var hasRunningRequest: Bool { !running.isEmpty }

    func pid(of ext: String) -> pid_t? { processes[ext]?.pid }

    // MARK: - Effects

    func send(_ request: ExtensionRequest) {
        eventLoop.preconditionInEventLoop()
        let ext = request.extension
        let process: ExtensionProcess
        if let existing = processes[ext], !existing.hasExited {
            process = existing
        } else {
            guard let launch = launches[ext] else {
                report(.extensionFailed(request.id, .crashed("the extension \(ext) is not loaded")))
                return
            }
            do {
                process = try start(launch)
            } catch {
                report(.extensionFailed(request.id, .crashed(error.description)))
                return
            }
        }

        let params: JSONValue?
        switch request.call {
        case .placeholder(let value): params = try? JSONValue(encoding: value)
        case .snapshot(let value): params = try? JSONValue(encoding: value)
        case .timeline(let value): params = try? JSONValue(encoding: value)
        }
        process.send(.request(id: .number(request.id.value), method: request.call.method.rawValue, params: params))
        var entry = Running(request: request, process: process, sampler: nil)
        let interval = TimeAmount.nanoseconds(Int64(limits.memorySampleInterval * 1_000_000_000))
        entry.sampler = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [weak self] _ in
            self?.sample(ext)
        }
        running[ext] = entry
    }

    func kill(_ ext: String) {
        eventLoop.preconditionInEventLoop()
        finishRunning(ext)
        processes.removeValue(forKey: ext)?.kill()
    }

    func terminate(_ ext: String) {
        eventLoop.preconditionInEventLoop()
        finishRunning(ext)
        processes.removeValue(forKey: ext)?.terminate()
    }

    /// Stops every process this daemon started, and reaps them all (shutdown).
    func stopAll() -> EventLoopFuture<Void> {
        for ext in running.keys.sorted() { finishRunning(ext) }
        processes.removeAll()
        return processTable.stopAll()
    }

    // MARK: - Processes

    private func start(_ launch: ExtensionLaunch) throws(SpawnError) -> ExtensionProcess {
        var started: ExtensionProcess?
        let process = try ExtensionProcess.start(
            launch, maxLineBytes: limits.maxTimelineBytes + 64 * 1024, in: processTable
        ) { [weak self] event in
            guard let self, let started else { return }
            self.handle(event, from: started)
        }
        started = process
        processes[launch.bundleID] = process
        cgroups?.place(process.pid, bundleID: launch.bundleID)
        // Every process hears `initialize` first, as any JSON-RPC peer expects.
        initializeCounter += 1
        process.send(
            .request(
                id: .string("initialize-\(initializeCounter)"), method: ExtensionMethod.initialize.rawValue,
                params: try? JSONValue(encoding: InitializeParams())))
        logger.debug(
            "started extension process", metadata: ["EXTENSION": "\(launch.bundleID)", "PID": "\(process.pid)"])
        return process
    }

    private func sample(_ ext: String) {
        guard let entry = running[ext] else { return }
        entry.process.pollExit()
        guard running[ext] != nil else { return }
        // The kernel may have killed a child for memory.max while the extension lives on.
        if let bytes = cgroups?.memoryKill(of: entry.process.pid) {
            report(.extensionFailed(entry.request.id, .memoryLimitExceeded(footprintBytes: bytes)))
            return
        }
        guard let bytes = footprints.footprint(ofProcessGroupLeader: entry.process.pid) else { return }
        report(.footprintSampled(entry.request.id, bytes: bytes))
    }

    private func finishRunning(_ ext: String) {
        running.removeValue(forKey: ext)?.sampler?.cancel()
    }

    private func handle(_ event: ExtensionProcessEvent, from process: ExtensionProcess) {
        let ext = process.launch.bundleID
        let current = processes[ext] === process
        switch event {
        case .stderr(let line):
            logger.info("\(line)", metadata: ["EXTENSION": "\(ext)", "STREAM": "stderr"])
        case .exited(let status):
            let memoryKill = cgroups?.release(process.pid)
            if current { processes[ext] = nil }
            if current, let entry = running[ext] {
                finishRunning(ext)
                report(.extensionFailed(
                    entry.request.id,
                    memoryKill.map { .memoryLimitExceeded(footprintBytes: $0) } ?? .crashed(status.description)))
            } else if !status.isCleanExit {
                logger.debug("extension process ended", metadata: ["EXTENSION": "\(ext)", "STATUS": "\(status)"])
            }
        case .oversizedLine(let count):
            guard current, let entry = running[ext] else { return }
            fail(entry, .protocolError(
                "stdout line longer than max_timeline_bytes + 64 KiB (\(count)+ bytes); reply with one line per message"))
        case .line(let parsed, let byteCount):
            guard current else { return }
            handleLine(parsed, byteCount: byteCount, ext: ext)
        }
    }

    private func handleLine(_ parsed: JSONRPCMessage.Parsed, byteCount: Int, ext: String) {
        let entry = running[ext]
        switch parsed {
        case .message(.response(.string(let id), _)) where id.hasPrefix("initialize-"):
            return
        case .message(.errorResponse(.string(let id)?, let error)) where id.hasPrefix("initialize-"):
            logger.warning(
                "extension answered initialize with an error: \(error.message)", metadata: ["EXTENSION": "\(ext)"])
        case .message(.response(let id, let result)):
            guard let entry else {
                // A second reply, or one nobody asked for: the process is out of step with the
                // protocol, and its next stray line would be charged to the next request.
                logger.warning(
                    "reply with id \(id) while no request was running; stopping the extension",
                    metadata: ["EXTENSION": "\(ext)"])
                processes.removeValue(forKey: ext)?.kill()
                return
            }
            guard id == .number(entry.request.id.value) else {
                fail(entry, .protocolError("reply for unknown id \(id); the running request is \(entry.request.id.value)"))
                return
            }
            deliver(result, byteCount: byteCount, for: entry)
        case .message(.errorResponse(let id, let error)):
            guard let entry, id == nil || id == .number(entry.request.id.value) else { return }
            fail(entry, .protocolError(
                "\(entry.request.call.method.rawValue) answered with error \(error.code): \(error.message)"))
        case .message(.request(_, let method, _)), .message(.notification(let method, _)):
            logger.debug("ignored message \"\(method)\" from the extension", metadata: ["EXTENSION": "\(ext)"])
        case .invalid(_, let error):
            guard let entry else {
                logger.warning("invalid stdout line: \(error.message)", metadata: ["EXTENSION": "\(ext)"])
                return
            }
            fail(entry, .protocolError("stdout line is not a JSON-RPC message (\(error.message))"))
        }
    }

    private func deliver(_ result: JSONValue, byteCount: Int, for entry: Running) {
        let request = entry.request
        let reply: ExtensionReply
        do {
            switch request.call {
            case .timeline:
                reply = .timeline(try result.decode(as: TimelinePayload.self), byteCount: byteCount)
            case .placeholder, .snapshot:
                reply = .entry(try result.decode(as: TimelineEntryPayload.self))
            }
        } catch {
            fail(entry, .protocolError("\(request.call.method.rawValue) reply does not match the protocol: \(describe(error))"))
            return
        }
        finishRunning(request.extension)
        // Checked once more when the reply arrives.
        let footprint = footprints.footprint(ofProcessGroupLeader: entry.process.pid)
        report(.extensionReplied(request.id, reply, footprintBytes: footprint))
    }

    private func fail(_ entry: Running, _ failure: ExtensionFailure) {
        finishRunning(entry.request.extension)
        report(.extensionFailed(entry.request.id, failure))
    }
}

/// A decoding error in one line: which field and what was wrong.
func describe(_ error: any Error) -> String {
    guard let decoding = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return keys.isEmpty ? "the reply" : String(keys.drop(while: { $0 == "." }))
    }
    switch decoding {
    case .keyNotFound(let key, let context):
        return "\(path(context)) is missing \"\(key.stringValue)\""
    case .typeMismatch(let type, let context):
        return "\(path(context)) should be \(type): \(context.debugDescription)"
    case .valueNotFound(let type, let context):
        return "\(path(context)) is null, expected \(type)"
    case .dataCorrupted(let context):
        return "\(path(context)): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}
