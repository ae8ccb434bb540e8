import Foundation
import NIOCore
import NIOPosix
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// One extension process on the daemon's event loop — the runner's event-loop face. NIO pipe
/// channels carry its stdin and stdout, and its stderr (a pipe of its own, or its extension's
/// kept pipe, `ExtensionStderr`); its `ExtensionSession` speaks the protocol;
/// its footprint is sampled every interval while a request runs; it is reaped when it ends.
/// The synchronous face (`ExtensionProcess`) does the same with `poll(2)`. Confined to the loop.
final class ProcessPipes: @unchecked Sendable {
    let launch: ExtensionLaunch
    let pid: pid_t
    let eventLoop: any EventLoop
    private let table: ProcessTable
    private let cgroups: ExtensionCgroups?
    private let sampleInterval: TimeAmount?
    private var session: ExtensionSession
    private let onEvent: (ProcessEvent) -> Void
    /// Runs what one read from the extension caused (its replies) as one batch of core steps.
    var batch: (() -> Void) -> Void = { $0() }
    /// The footprint, read through descriptors kept open until the process exits.
    private lazy var footprint = ProcessFootprint(pid: pid)
    private var stdin: (any Channel)?
    private var queuedWrites: [[UInt8]] = []
    /// Written to `stdin` and not flushed yet (`send(_:_:flush: false)`).
    private var unflushed = false
    private var stdinFailed = false
    private(set) var exitStatus: ExitStatus?
    private var exitReported = false
    private var stdoutClosed = false
    /// The extension's stderr pipe, when the process writes to it rather than to its own.
    private var keptStderr: ExtensionStderr?
    /// Footprint sampling while a request runs: the extension's timer, kept between its
    /// processes and really disarmed between rounds (`SamplerTimer`), or NIO's repeated task if
    /// no timerfd could be had.
    private let samplerTimer: () -> SamplerTimer?
    private var sampler: SamplerTimer?
    private var sampling = false
    private var fallbackSampler: RepeatedTask?
    /// The reaper (every 5 ms from `terminate`, `kill` or stdout's end until the exit is seen)
    /// and the SIGKILL after `terminate`'s grace: NIO's tasks, cancelled by `didExit`. NIO
    /// takes a cancelled task out of its heap but does not disarm its selector's timerfd, so a
    /// cancelled task that was the loop's earliest deadline when it last slept still wakes it
    /// once at its time (`LoopTimer` says more). Neither leaves that wake-up behind: the
    /// grace's deadline is never the earliest, because the reaper starts with it and re-arms
    /// the timerfd 5 ms ahead each turn, which replaces any later setting; and `didExit` runs
    /// inside a reaper (or sampler) turn, whose expiry has just been read, so the next sleep
    /// arms for what is left. IdleTests holds an idle stop (a 2 s grace) to no wake-up at all.
    private var reapTask: RepeatedTask?
    private var killTask: Scheduled<Void>?
    private var exitFallback: Scheduled<Void>?
    private var reapAttempts = 0
    private init(
        launch: ExtensionLaunch, spawned: SpawnedProcess, limits: ExtensionLimits, sampleInterval: TimeInterval?,
        table: ProcessTable, cgroups: ExtensionCgroups?, samplerTimer: @escaping () -> SamplerTimer?,
        onEvent: @escaping (ProcessEvent) -> Void
    ) {
        self.launch = launch
        self.samplerTimer = samplerTimer
        self.pid = spawned.pid
        self.eventLoop = table.eventLoop
        self.table = table
        self.cgroups = cgroups
        self.sampleInterval = sampleInterval.map { .nanoseconds(Int64($0 * 1_000_000_000)) }
        self.session = ExtensionSession(limits: limits)
        self.onEvent = onEvent
    }

    /// Spawns `launch`, wires its pipes into the event loop, places it in its cgroup and
    /// writes `initialize`. `sampleInterval`: footprint sampling while a request runs (nil: none),
    /// on the timer `samplerTimer` gives when it is first needed (nil: NIO's repeated task).
    /// `stdio`: stdin and stdout made ahead with their channel (`SpareStdio`), used if still
    /// open and closed otherwise (nil, or not open: pipes and a channel made after the spawn).
    /// `stderr`: the extension's kept stderr pipe, which this process then owns (nil: a pipe
    /// and a channel of its own).
    static func start(
        _ launch: ExtensionLaunch, limits: ExtensionLimits, sampleInterval: TimeInterval?, spawner: ProcessSpawner,
        in table: ProcessTable, cgroups: ExtensionCgroups? = nil, samplerTimer: @escaping () -> SamplerTimer? = { nil },
        stdio spare: SpareStdio? = nil, stderr: ExtensionStderr? = nil, onEvent: @escaping (ProcessEvent) -> Void
    ) throws(SpawnError) -> ProcessPipes {
        let eventLoop = table.eventLoop
        eventLoop.preconditionInEventLoop()
        let ready = spare?.readyChannel
        if ready == nil { spare?.close() }
        // Returns at the child's execve of the extension (the loop waits for the kernel's part
        // of it, as posix_spawn would); a failed exec or a refused rule is thrown here.
        let spawned: SpawnedProcess
        do {
            spawned = try spawner.spawn(launch, stdio: ready == nil ? nil : spare?.pipes, stderr: stderr?.writeEnd)
        } catch {
            if ready != nil { spare?.close() }
            throw error
        }
        let process = ProcessPipes(
            launch: launch, spawned: spawned, limits: limits, sampleInterval: sampleInterval, table: table,
            cgroups: cgroups, samplerTimer: samplerTimer, onEvent: onEvent)
        table.add(process)
        if let stderr {
            // What the pipe holds still is the previous process's (its exit drained it).
            process.keptStderr = stderr
            stderr.owner = process
            stderr.listen()
        }
        cgroups?.place(process.pid, bundleID: launch.bundleID)
        if let ready, let spare {
            // Registered while the extension had no process: nothing to wait for.
            spare.reader.process = process
            process.stdinReady(ready)
        } else {
            process.openStdio(spawned)
        }
        if spawned.stderrRead >= 0 {
            _ = NIOPipeBootstrap(group: eventLoop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(PipeReader(process: process, stream: .stderr))
                    }
                }
                .takingOwnershipOfDescriptor(input: spawned.stderrRead)
        }
        let handshake = process.session.start()
        // A spare's stdin holds `initialize` already, written when it was made (`SpareStdio`).
        if ready == nil { process.perform(handshake) }
        return process
    }

    /// The channel of stdin and stdout, made after the spawn.
    private func openStdio(_ spawned: SpawnedProcess) {
        let process = self
        let stdoutFuture = NIOPipeBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(PipeReader(process: process, stream: .stdout))
                }
            }
            .takingOwnershipOfDescriptors(input: spawned.stdoutRead, output: spawned.stdinWrite)
        stdoutFuture.whenSuccess { channel in process.stdinReady(channel) }
        stdoutFuture.whenFailure { _ in
            process.stdinFailed = true
            process.stdoutDidClose()
        }
    }

    /// Opens the footprint's files now, while the process loads, rather than at its first
    /// reply, which is on a reload's path (`ProcessFootprint.prepare`).
    func prepareFootprint() {
        guard exitStatus == nil else { return }
        footprint.prepare()
    }

    var hasExited: Bool { exitStatus != nil }
    var runningRequest: RequestID? { session.runningRequest }

    /// Sends one request and samples the footprint until it is answered. `flush: false`
    /// leaves the line in the channel until `flush()`, so that several go out in one write.
    func send(_ id: RequestID, _ call: ExtensionRequest.Call, flush: Bool = true) {
        eventLoop.preconditionInEventLoop()
        perform(session.send(id, call), flush: flush)
        startSampling()
    }

    /// Writes out what `send(_:_:flush: false)` left in the channel; false if there was nothing.
    @discardableResult
    func flush() -> Bool {
        guard unflushed, let stdin else { return false }
        unflushed = false
        stdin.flush()
        return true
    }

    /// The host gave up on what runs; nothing the process says any more is charged to it.
    func abandon() {
        session.abandon()
        stopSampling()
    }

    /// SIGKILL to the whole process group (like jetsam): children die too.
    func kill() {
        abandon()
        guard exitStatus == nil else { return }
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
        startReaping()
    }

    /// SIGTERM to the group, then SIGKILL after `grace` if it is still there.
    func terminate(grace: TimeAmount = .seconds(2)) {
        abandon()
        guard exitStatus == nil else { return }
        Glibc.kill(-pid, SIGTERM)
        _ = stdin?.close(mode: .output)
        killTask = eventLoop.scheduleTask(in: grace) { [self] in kill() }
        startReaping()
    }

    // MARK: - I/O

    private func perform(_ actions: [ExtensionSession.Action], flush: Bool = true) {
        for action in actions {
            switch action {
            case .write(let bytes): write(bytes, flush: flush)
            case .initialized(let result): onEvent(.initialized(result))
            case .replied(let id, let reply):
                // Checked once more when the reply arrives.
                let footprint = exitStatus == nil ? self.footprint.read() : nil
                onEvent(.replied(id, reply, footprintBytes: footprint))
            case .failed(let id, let failure): onEvent(.failed(id, failure))
            case .stderr(let line): onEvent(.stderr(line))
            case .stop(let reason):
                kill()
                onEvent(.stopped(reason: reason))
            case .note(let line): onEvent(.note(line))
            }
        }
        if session.runningRequest == nil { stopSampling() }
    }

    private func write(_ bytes: [UInt8], flush: Bool) {
        guard let stdin else {
            // The pipe channel is still registering; the line waits for it.
            if !stdinFailed { queuedWrites.append(bytes) }
            return
        }
        if flush {
            unflushed = false
            stdin.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
        } else {
            unflushed = true
            stdin.write(ByteBuffer(bytes: bytes), promise: nil)
        }
    }

    private func stdinReady(_ channel: any Channel) {
        stdin = channel
        for bytes in queuedWrites { channel.write(ByteBuffer(bytes: bytes), promise: nil) }
        queuedWrites.removeAll()
        channel.flush()
    }

    func received(_ buffer: ByteBuffer, from stream: PipeReader.Stream) {
        let actions = buffer.withUnsafeReadableBytes { bytes in
            stream == .stdout ? session.receive(stdout: bytes) : session.receive(stderr: bytes)
        }
        batch { perform(actions) }
    }

    /// What the extension's kept stderr pipe delivered while this process owns it.
    func receivedStderr(_ buffer: ByteBuffer) {
        received(buffer, from: .stderr)
    }

    func streamEnded(_ stream: PipeReader.Stream) {
        if stream == .stderr {
            perform(session.endOfStderr())
            return
        }
        perform(session.endOfStdout())
        stdoutDidClose()
    }

    private func sample() {
        pollExit()
        guard exitStatus == nil, session.runningRequest != nil else { return }
        // The kernel may have killed a child for memory.max while the extension lives on.
        if let bytes = cgroups?.memoryKill(of: pid) {
            perform(session.killedForMemory(footprintBytes: bytes))
            return
        }
        guard let bytes = footprint.read() else { return }
        onEvent(.sampled(bytes: bytes))
    }

    private func startSampling() {
        guard let interval = sampleInterval, !sampling, exitStatus == nil else { return }
        sampling = true
        if sampler == nil, fallbackSampler == nil { sampler = samplerTimer() }
        if let sampler {
            sampler.arm(every: Double(interval.nanoseconds) / 1e9, for: self) { [weak self] in self?.sample() }
        } else {
            fallbackSampler = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [weak self] _ in
                self?.sample()
            }
        }
    }

    private func stopSampling() {
        guard sampling else { return }
        sampling = false
        sampler?.disarm(for: self)
        fallbackSampler?.cancel()
        fallbackSampler = nil
    }

    // MARK: - Exit

    /// Checks once, without blocking, whether the process has ended (a crashed parent whose
    /// child still holds stdout open would otherwise go unnoticed).
    private func pollExit() {
        guard exitStatus == nil else { return }
        var status: CInt = 0
        if waitpid(pid, &status, WNOHANG) == pid { didExit(ExitStatus(waitStatus: status)) }
    }

    private func stdoutDidClose() {
        guard !stdoutClosed else { return }
        stdoutClosed = true
        if exitStatus != nil {
            reportExit()
        } else {
            startReaping()
        }
    }

    private func startReaping() {
        guard reapTask == nil, exitStatus == nil else { return }
        reapTask = eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(5)) { [self] task in
            reapAttempts += 1
            pollExit()
            if exitStatus != nil {
                task.cancel()
            } else if reapAttempts == 400 {
                // Two seconds after stdout closed and still alive: it will not exit by itself.
                Glibc.kill(-pid, SIGKILL)
                Glibc.kill(pid, SIGKILL)
            }
        }
    }

    private func didExit(_ status: ExitStatus) {
        exitStatus = status
        reapTask?.cancel()
        killTask?.cancel()
        stopSampling()
        // The timer is the extension's: the next process samples on it.
        sampler = nil
        footprint.close()
        // Whatever the process left behind in its group goes with it — including a child
        // holding stdout open, so that what the process wrote before exiting arrives first.
        Glibc.kill(-pid, SIGKILL)
        if stdoutClosed {
            reportExit()
        } else {
            // A child that left the group can hold stdout open for good; do not wait for it.
            exitFallback = eventLoop.scheduleTask(in: .milliseconds(100)) { [self] in reportExit() }
        }
    }

    private func reportExit() {
        guard let status = exitStatus, !exitReported else { return }
        exitReported = true
        exitFallback?.cancel()
        _ = stdin?.close()
        let memoryKill = cgroups?.release(pid)
        if let keptStderr {
            // Its last lines before its exit, as a pipe of its own would end with them.
            if keptStderr.owner === self { keptStderr.drain { bytes in perform(session.receive(stderr: bytes)) } }
            perform(session.endOfStderr())
        }
        perform(session.exited(status, memoryKillFootprint: memoryKill))
        table.remove(self)
        onEvent(.exited(status))
    }
}
