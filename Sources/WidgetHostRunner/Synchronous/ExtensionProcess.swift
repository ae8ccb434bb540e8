import CSpawn
import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// One running extension process, driven synchronously: the face of the runner that the
/// harness and the doctor use, which stand still while they wait for it. Its session
/// (`ExtensionSession`) speaks the protocol; this does the I/O: one `poll(2)` on stdout,
/// stderr and a pidfd (so that an exit is seen even while a child holds stdout open),
/// footprint samples every `sampleInterval` while an answer is awaited.
///
/// Confined to the thread that uses it.
public final class ExtensionProcess {
    public let launch: ExtensionLaunch
    public let pid: pid_t
    /// When the process was spawned: the clock of a cold start.
    public let started: ContinuousClock.Instant
    /// The highest footprint sampled so far, nil before the first sample.
    public private(set) var peakFootprint: Int?
    /// The last lines the process wrote to stderr, to explain a failure.
    public private(set) var stderrTail: [String] = []
    public private(set) var exitStatus: ExitStatus?

    private var session: ExtensionSession
    private let sampleInterval: Duration?
    private var nextSample: ContinuousClock.Instant?
    private var stdin: CInt
    private var stdout: CInt
    private var stderr: CInt
    private var pidfd: CInt
    private var events: [ProcessEvent] = []
    private var exitReported = false
    private let footprints = FootprintReader()

    private init(launch: ExtensionLaunch, spawned: SpawnedProcess, limits: ExtensionLimits, sampleInterval: TimeInterval?) {
        self.launch = launch
        pid = spawned.pid
        let started = ContinuousClock.now
        self.started = started
        session = ExtensionSession(limits: limits)
        let interval = sampleInterval.map { Duration.nanoseconds(Int64($0 * 1_000_000_000)) }
        self.sampleInterval = interval
        nextSample = interval.map { started + $0 }
        stdin = spawned.stdinWrite
        stdout = spawned.stdoutRead
        stderr = spawned.stderrRead
        pidfd = widgethost_pidfd_open(spawned.pid)
        if pidfd >= 0 { _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC) }
        for descriptor in [stdout, stderr] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
    }

    /// Spawns `launch` and writes `initialize`, the first line every process hears.
    /// `sampleInterval`: how often the footprint is sampled while an answer is awaited (nil: never).
    public static func start(
        _ launch: ExtensionLaunch, limits: ExtensionLimits, sampleInterval: TimeInterval? = nil,
        spawner: ProcessSpawner? = nil
    ) throws(SpawnError) -> ExtensionProcess {
        let spawner = spawner ?? .sandboxed(limits)
        // A process that dies before reading its input must not take the caller with it.
        signal(SIGPIPE, SIG_IGN)
        let process = ExtensionProcess(
            launch: launch, spawned: try spawner.spawn(launch), limits: limits, sampleInterval: sampleInterval)
        process.perform(process.session.start())
        // The harness and the doctor have no idle moment between their processes: the next
        // one's ruleset is made while this one loads.
        spawner.prepareNextSpawn(of: launch)
        return process
    }

    deinit {
        if exitStatus == nil { kill() }
        closeAll()
    }

    /// Seconds since the process was spawned.
    public var elapsed: TimeInterval { Self.seconds(started.duration(to: .now)) }
    public var hasExited: Bool { exitStatus != nil }
    public var runningRequest: RequestID? { session.runningRequest }

    /// Sends one request; the next may follow once this one is answered or given up.
    public func send(_ id: RequestID, _ call: ExtensionRequest.Call) {
        perform(session.send(id, call))
    }

    /// What the process does next, waiting at most until `limit`: nil when the limit came
    /// first, or at once when the process has ended and everything it did was reported.
    public func next(until limit: ContinuousClock.Instant) -> ProcessEvent? {
        Self.next(among: [self], until: limit)?.event
    }

    /// What the first of `processes` does next, waiting for all of them in one `poll(2)` at
    /// most until `limit` (the harness runs several bundles at once): nil when the limit came
    /// first, or at once when every process has ended and everything was reported.
    public static func next(
        among processes: [ExtensionProcess], until limit: ContinuousClock.Instant
    ) -> (process: ExtensionProcess, event: ProcessEvent)? {
        while true {
            let now = ContinuousClock.now
            for process in processes {
                if let event = process.ready(at: now) { return (process, event) }
            }
            if processes.allSatisfy(\.exitReported) || now >= limit { return nil }
            let until = processes.reduce(limit) { min($0, $1.wakeUp(after: now)) }
            var descriptors = processes.flatMap(\.pollDescriptors)
            let milliseconds = max(0, seconds(now.duration(to: until)) * 1000)
            if poll(&descriptors, nfds_t(descriptors.count), CInt(milliseconds.rounded(.up))) < 0, errno == EINTR {
                continue
            }
            for (index, process) in processes.enumerated() {
                process.handle(pidReady: descriptors[index * 3 + 2].revents != 0)
            }
        }
    }

    /// An event already known, or a footprint sample that is due.
    private func ready(at now: ContinuousClock.Instant) -> ProcessEvent? {
        if !events.isEmpty { return events.removeFirst() }
        guard let interval = sampleInterval, session.isAwaitingAnswer, exitStatus == nil, let due = nextSample,
            now >= due
        else { return nil }
        nextSample = due + interval > now ? due + interval : now + interval
        return sample().map { .sampled(bytes: $0) } ?? ready(at: now)
    }

    /// When this process needs looking at again even if nothing arrives.
    private func wakeUp(after now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        var until = ContinuousClock.Instant.now + .seconds(3600)
        if session.isAwaitingAnswer, exitStatus == nil, sampleInterval != nil, let nextSample { until = nextSample }
        // Without a pidfd (kernels before 5.3) the exit is checked every 5 ms instead.
        if pidfd < 0, exitStatus == nil { until = min(until, now + .milliseconds(5)) }
        return until
    }

    /// SIGKILL to the whole process group (like jetsam): children die too. Reaps the process.
    public func kill() {
        session.abandon()
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
        reap(blocking: true)
    }

    /// Closes stdin (an extension exits when it closes), gives the process `grace` to exit,
    /// then kills what is left of its group and reaps it.
    public func finish(grace: Duration = .milliseconds(200)) {
        session.abandon()
        closeDescriptor(&stdin)
        let end = ContinuousClock.now + grace
        while exitStatus == nil, ContinuousClock.now < end {
            wait(until: min(end, .now + .milliseconds(5)))
        }
        // Whatever it left behind in its group goes with it.
        Glibc.kill(-pid, SIGKILL)
        if exitStatus == nil { kill() }
    }

    // MARK: - I/O

    private func sample() -> Int? {
        guard exitStatus == nil, let bytes = footprints.footprint(ofProcessGroupLeader: pid) else { return nil }
        peakFootprint = max(peakFootprint ?? 0, bytes)
        return bytes
    }

    /// stdout, stderr and the pidfd, for `poll(2)` (-1: not watched).
    private var pollDescriptors: [pollfd] {
        [
            pollfd(fd: stdout, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stderr, events: Int16(POLLIN), revents: 0),
            pollfd(fd: exitStatus == nil ? pidfd : -1, events: Int16(POLLIN), revents: 0),
        ]
    }

    /// After a `poll(2)`: whatever became readable, and the exit if it came.
    private func handle(pidReady: Bool) {
        drainPipes()
        if exitStatus == nil, pidfd < 0 || pidReady { reap(blocking: false) }
    }

    /// One `poll(2)` until `until` (used while finishing).
    private func wait(until: ContinuousClock.Instant) {
        var descriptors = pollDescriptors
        let milliseconds = max(0, Self.seconds(ContinuousClock.now.duration(to: until)) * 1000)
        if poll(&descriptors, nfds_t(descriptors.count), CInt(milliseconds.rounded(.up))) < 0, errno == EINTR { return }
        handle(pidReady: descriptors[2].revents != 0)
    }

    /// What the pipes hold now, up to 1 MiB each per call so that a flood cannot hold up
    /// samples and deadlines; an end of file is passed on to the session.
    private func drainPipes() {
        if stdout >= 0, !Self.drain(stdout, into: { perform(session.receive(stdout: $0)) }) {
            closeDescriptor(&stdout)
            perform(session.endOfStdout())
        }
        if stderr >= 0, !Self.drain(stderr, into: { perform(session.receive(stderr: $0)) }) {
            closeDescriptor(&stderr)
            perform(session.endOfStderr())
        }
    }

    private func reap(blocking: Bool) {
        guard exitStatus == nil else { return }
        var status: CInt = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return }
        exitStatus = ExitStatus(waitStatus: status)
        // Whatever it wrote before exiting is still in the pipes; it counts.
        drainPipes()
        // Whatever it left behind in its group goes with it.
        Glibc.kill(-pid, SIGKILL)
        perform(session.exited(exitStatus!))
        events.append(.exited(exitStatus!))
        exitReported = true
    }

    private func perform(_ actions: [ExtensionSession.Action]) {
        for action in actions {
            switch action {
            case .write(let bytes): write(bytes)
            case .initialized(let result): events.append(.initialized(result))
            case .replied(let id, let reply):
                // The host checks the footprint once more when the reply arrives.
                events.append(.replied(id, reply, footprintBytes: sample()))
            case .failed(let id, let failure): events.append(.failed(id, failure))
            case .stderr(let line):
                stderrTail.append(line)
                if stderrTail.count > 8 { stderrTail.removeFirst() }
            case .stop(let reason):
                Glibc.kill(-pid, SIGKILL)
                Glibc.kill(pid, SIGKILL)
                events.append(.stopped(reason: reason))
            case .note:
                break
            }
        }
    }

    private func write(_ bytes: [UInt8]) {
        guard stdin >= 0 else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(stdin, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                // EPIPE: the process is already gone; its exit says how it ended.
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Reads what is readable now (at most 1 MiB) and hands it on in chunks; false once the
    /// pipe has reached its end.
    private static func drain(_ descriptor: CInt, into consume: (ArraySlice<UInt8>) -> Void) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<16 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                consume(buffer[0..<count])
                continue
            }
            if count < 0, errno == EINTR { continue }
            return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
        return true
    }

    private func closeDescriptor(_ descriptor: inout CInt) {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    private func closeAll() {
        closeDescriptor(&stdin)
        closeDescriptor(&stdout)
        closeDescriptor(&stderr)
        closeDescriptor(&pidfd)
    }

    public static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
