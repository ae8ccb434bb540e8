import Foundation
import Logging
import NIOCore
import WidgetHostBundles
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol
import WidgetHostRunner

/// Executes the core's extension effects on the daemon's event loop: starts a process per
/// extension on demand and keeps it for the next request, sends each request, and turns what
/// the process does into core events. The rules (deadlines, limits, what a failure means)
/// are the core's; the session and the pipes only report. Confined to the event loop.
final class ExtensionSupervisor: ExtensionRunner, @unchecked Sendable {
    let eventLoop: any EventLoop
    let limits: ExtensionLimits
    let logger: Logger
    let processTable: ProcessTable
    /// Every extension process starts here, inside the sandbox `limits.sandbox` asks for.
    var spawner: ProcessSpawner
    /// Called with every event for the core (on the loop).
    var report: (HostEvent) -> Void = { _ in }
    /// Runs the events of one read from an extension as one batch (`HostDriver.batch`).
    var batch: (() -> Void) -> Void = { $0() }
    /// A cgroup per process (`limits.cgroup = auto` where delegation allows it), or nil.
    var cgroups: ExtensionCgroups?

    private(set) var launches: [String: ExtensionLaunch] = [:]
    private var processes: [String: ProcessPipes] = [:]
    /// Each extension's footprint sampler timer, kept between its processes (`SamplerTimer`).
    private var samplerTimers: [String: SamplerTimer] = [:]
    /// Each extension's stderr pipe, kept between its processes (`ExtensionStderr`).
    private var stderrPipes: [String: ExtensionStderr] = [:]
    /// The stdio of each extension's next process, made when its last one exited (`SpareStdio`).
    private var spareStdio: [String: SpareStdio] = [:]
    /// Starts that found their stdio made ahead (tests).
    private(set) var startsOnSpareStdio = 0
    /// `stopAll` ran: no stdio is made ahead any more.
    private var stopping = false
    /// Starts that failed in `startProcess(for:)`, by extension, each reported by the `send`
    /// that follows it (the core sees the failure where it saw it when `send` started the process).
    private var failedStarts: [String: SpawnError] = [:]
    /// Processes written to since the last `flush()`.
    private var unflushed: [ProcessPipes] = []
    /// Writes of requests to extension processes so far, one per process per `flush()`
    /// (tests: reloads due at one instant go out in one).
    private(set) var flushedWrites = 0

    init(eventLoop: any EventLoop, limits: ExtensionLimits, logger: Logger) {
        self.eventLoop = eventLoop
        self.limits = limits
        self.logger = logger
        self.processTable = ProcessTable(eventLoop: eventLoop)
        self.spawner = .sandboxed(limits)
    }

    /// Bundles that can be started, by bundle id (after a scan).
    func setLaunches(_ launches: [String: ExtensionLaunch]) {
        self.launches = launches
        // A removed bundle's timer goes once no process of it may still sample on it.
        for (ext, timer) in samplerTimers where launches[ext] == nil && processes[ext] == nil {
            timer.close()
            samplerTimers[ext] = nil
        }
        for (ext, pipe) in stderrPipes where launches[ext] == nil && processes[ext] == nil {
            pipe.close()
            stderrPipes[ext] = nil
        }
        for (ext, spare) in spareStdio where launches[ext] == nil {
            spare.close()
            spareStdio[ext] = nil
        }
    }

    /// A request is out with an extension (the virtual clock waits for it before jumping).
    var hasRunningRequest: Bool { processes.values.contains { $0.runningRequest != nil } }

    // MARK: - Effects

    /// Starts the process before the step is written (`HostDriver`): `initialize`, the same
    /// handshake for every process, is all it is written until `send`.
    func startProcess(for request: ExtensionRequest) {
        eventLoop.preconditionInEventLoop()
        let ext = request.extension
        guard running(ext) == nil, failedStarts[ext] == nil, let launch = launches[ext] else { return }
        do {
            _ = try start(launch)
        } catch {
            failedStarts[ext] = error
        }
    }

    func send(_ request: ExtensionRequest) {
        eventLoop.preconditionInEventLoop()
        let ext = request.extension
        let process: ProcessPipes
        if let running = running(ext) {
            process = running
        } else if let error = failedStarts.removeValue(forKey: ext) {
            report(.extensionFailed(request.id, .crashed(error.description)))
            return
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
        process.send(request.id, request.call, flush: false)
        if !unflushed.contains(where: { $0 === process }) { unflushed.append(process) }
    }

    /// The requests of one step go out to each process in one write.
    func flush() {
        eventLoop.preconditionInEventLoop()
        failedStarts.removeAll()
        for process in unflushed where process.flush() { flushedWrites += 1 }
        unflushed.removeAll()
    }

    func kill(_ ext: String) {
        eventLoop.preconditionInEventLoop()
        processes.removeValue(forKey: ext)?.kill()
    }

    func terminate(_ ext: String) {
        eventLoop.preconditionInEventLoop()
        processes.removeValue(forKey: ext)?.terminate()
    }

    /// Stops every process this daemon started, and reaps them all (shutdown).
    func stopAll() -> EventLoopFuture<Void> {
        for process in processes.values { process.abandon() }
        processes.removeAll()
        for timer in samplerTimers.values { timer.close() }
        samplerTimers.removeAll()
        stopping = true
        for spare in spareStdio.values { spare.close() }
        spareStdio.removeAll()
        // The pipes once the processes are gone, so that their last lines are logged.
        let pipes = Array(stderrPipes.values)
        stderrPipes.removeAll()
        let stopped = processTable.stopAll()
        stopped.whenComplete { _ in for pipe in pipes { pipe.close() } }
        return stopped
    }

    // MARK: - Processes

    /// The extension's sampler timer, made when a process of it first samples.
    private func samplerTimer(for ext: String) -> SamplerTimer? {
        if let timer = samplerTimers[ext] { return timer }
        guard let timer = try? SamplerTimer(on: eventLoop) else { return nil }
        samplerTimers[ext] = timer
        return timer
    }

    /// The extension's sampler timer, if one was made (tests).
    func keptSamplerTimer(for ext: String) -> SamplerTimer? { samplerTimers[ext] }

    /// The extension's stderr pipe, made at its first start; nil if none could be made (its
    /// processes then get a pipe each).
    private func stderrPipe(for ext: String) -> ExtensionStderr? {
        if let pipe = stderrPipes[ext] { return pipe }
        guard let pipe = try? ExtensionStderr(on: eventLoop) else { return nil }
        stderrPipes[ext] = pipe
        return pipe
    }

    /// The extension's stderr pipe, if one was made (tests).
    func keptStderr(for ext: String) -> ExtensionStderr? { stderrPipes[ext] }

    /// The stdio made for the extension's next process, if any (tests).
    func spareStdio(for ext: String) -> SpareStdio? { spareStdio[ext] }

    /// The extension's process, if one runs.
    private func running(_ ext: String) -> ProcessPipes? {
        guard let process = processes[ext], !process.hasExited else { return nil }
        return process
    }

    private func start(_ launch: ExtensionLaunch) throws(SpawnError) -> ProcessPipes {
        var started: ProcessPipes?
        let spare = spareStdio.removeValue(forKey: launch.bundleID)
        let onSpare = spare?.readyChannel != nil
        let process = try ProcessPipes.start(
            launch, limits: limits, sampleInterval: limits.memorySampleInterval, spawner: spawner, in: processTable,
            cgroups: cgroups, samplerTimer: { [weak self] in self?.samplerTimer(for: launch.bundleID) },
            stdio: spare, stderr: stderrPipe(for: launch.bundleID)
        ) { [weak self] event in
            guard let self, let started else { return }
            self.handle(event, from: started)
        }
        if onSpare { startsOnSpareStdio += 1 }
        started = process
        process.batch = { [unowned self] body in batch(body) }
        processes[launch.bundleID] = process
        // After the clone, while the extension loads: off the path of its first reply.
        process.prepareFootprint()
        logger.debug(
            "started extension process", metadata: ["EXTENSION": "\(launch.bundleID)", "PID": "\(process.pid)"])
        return process
    }

    private func handle(_ event: ProcessEvent, from process: ProcessPipes) {
        let ext = process.launch.bundleID
        let current = processes[ext] === process
        switch event {
        case .stderr(let line):
            logger.info("\(line)", metadata: ["EXTENSION": "\(ext)", "STREAM": "stderr"])
        case .note(let line):
            logger.debug("\(line)", metadata: ["EXTENSION": "\(ext)"])
        case .stopped(let reason):
            logger.warning("\(reason)", metadata: ["EXTENSION": "\(ext)"])
            if current { processes[ext] = nil }
        case .exited(let status):
            if current { processes[ext] = nil }
            // The next process's stdio and Landlock ruleset, made now, while the extension has
            // none running: off the path of its next cold start (`SpareStdio`,
            // `ProcessSpawner.prepareNextSpawn`).
            if !stopping, processes[ext] == nil, let launch = launches[ext], spareStdio[ext] == nil {
                spareStdio[ext] = SpareStdio.make(on: eventLoop)
                spawner.prepareNextSpawn(of: launch)
            }
            if !status.isCleanExit {
                logger.debug("extension process ended", metadata: ["EXTENSION": "\(ext)", "STATUS": "\(status)"])
            }
        case .initialized(.failure(let failure)):
            logger.warning("initialize failed: \(failure)", metadata: ["EXTENSION": "\(ext)"])
        case .initialized(.success):
            break
        case .replied, .failed, .sampled:
            guard current, let event = event.hostEvent(running: process.runningRequest) else { return }
            report(event)
        }
    }
}
