import CSpawn
import Foundation
import WidgetHostBundles
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with its own process group and three pipes.
public struct SpawnedProcess: Sendable {
    public let pid: pid_t
    /// Host side of the child's stdin (we write).
    public let stdinWrite: CInt
    /// Host side of the child's stdout (we read).
    public let stdoutRead: CInt
    /// Host side of the child's stderr (we read).
    public let stderrRead: CInt
}

/// A process `ProcessSpawner.start` started, whose shim may still be on its way to the
/// extension's `execve`.
public struct StartedProcess: Sendable {
    public let spawned: SpawnedProcess
    /// The read end of the shim's report pipe, now the caller's to read and close (nil: no
    /// shim, the spawn is complete). End of file with nothing read: the extension runs.
    public let execReport: CInt?
    /// The extension's executable, as errors name it.
    public let executable: String

    /// What the report said once it ended: nil (the extension runs) or why it does not, as
    /// the error a blocking spawn would have thrown. The shim exits after reporting.
    public func execFailure(_ bytes: [UInt8]) -> SpawnError? {
        ExecReport.error(from: bytes, executable: executable)
    }
}

public struct SpawnError: Error, Sendable, Hashable, CustomStringConvertible {
    public let executable: String
    public let errno: CInt
    /// Why the launch was refused before any process started (the sandbox's `required` mode).
    public let reason: String?

    public init(executable: String, errno: CInt) {
        self.executable = executable
        self.errno = errno
        self.reason = nil
    }

    /// A launch refused for `reason`, a sentence that names the fix.
    public init(executable: String, reason: String) {
        self.executable = executable
        self.errno = EPERM
        self.reason = reason
    }

    public var description: String {
        "cannot start \(executable): \(reason ?? String(cString: strerror(errno)))"
    }
}

/// `posix_spawn` with the settings an extension gets: a new process group (so a kill reaches
/// its children too), default signal dispositions, no descriptor but its three pipes, and
/// the launch's environment only (cleared but for what `ExtensionLaunch` put there).
///
/// Every extension process of the daemon, the harness and the doctor starts here, after its
/// `confinement` has had its say: the one place a sandbox is applied before the extension's
/// own code runs (issue 17).
public struct ProcessSpawner: Sendable {
    public var confinement: any LaunchConfinement

    public init(confinement: any LaunchConfinement = Unconfined()) {
        self.confinement = confinement
    }

    /// Starts `launch`'s executable, confined, and waits for a shim's `execve` (the
    /// synchronous face: the harness and the doctor).
    public func spawn(_ launch: ExtensionLaunch) throws(SpawnError) -> SpawnedProcess {
        let (spawned, report) = try launchProcess(launch)
        try report?.wait(for: spawned)
        return spawned
    }

    /// Starts `launch`'s executable, confined, without waiting for a shim's `execve`: the
    /// caller watches `execReport` (the daemon, on its event loop, which must not block).
    public func start(_ launch: ExtensionLaunch) throws(SpawnError) -> StartedProcess {
        let (spawned, report) = try launchProcess(launch)
        report?.closeWriteEnd()
        return StartedProcess(spawned: spawned, execReport: report?.readEnd, executable: launch.executable)
    }

    private func launchProcess(_ launch: ExtensionLaunch) throws(SpawnError) -> (SpawnedProcess, ExecReport?) {
        var command = SpawnCommand(
            executable: launch.executable, arguments: [], environment: launch.environment)
        try confinement.confine(&command, for: launch)
        let report: ExecReport? = command.reportsOnDescriptor3 ? try ExecReport(executable: launch.executable) : nil
        do {
            let spawned = try Self.spawn(
                executable: command.executable, arguments: command.arguments, environment: command.environment,
                report: report?.writeEnd)
            return (spawned, report)
        } catch {
            report?.abandon()
            throw error
        }
    }

    /// Starts `executable` with exactly `environment`.
    public static func spawn(
        executable: String, arguments: [String] = [], environment: [String: String], report: CInt? = nil
    ) throws(SpawnError) -> SpawnedProcess {
        var stdinPipe: [CInt] = [-1, -1]
        var stdoutPipe: [CInt] = [-1, -1]
        var stderrPipe: [CInt] = [-1, -1]
        guard makePipe(&stdinPipe) else { throw SpawnError(executable: executable, errno: errno) }
        guard makePipe(&stdoutPipe) else {
            let saved = errno
            closeAll(stdinPipe)
            throw SpawnError(executable: executable, errno: saved)
        }
        guard makePipe(&stderrPipe) else {
            let saved = errno
            closeAll(stdinPipe + stdoutPipe)
            throw SpawnError(executable: executable, errno: saved)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears O_CLOEXEC on the target.
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        // A shim's report pipe goes to descriptor 3 (dup2 clears O_CLOEXEC; the shim sets it
        // again, so the extension's execve closes it).
        if let report { posix_spawn_file_actions_adddup2(&actions, report, 3) }
        // And nothing else: a descriptor some library opened without O_CLOEXEC (the control
        // socket's listener was one) would outlive a killed daemon in its extensions, and a
        // new daemon would find the socket still "served" by an orphan.
        posix_spawn_file_actions_addclosefrom_np(&actions, report == nil ? 3 : 4)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        // The daemon ignores SIGPIPE; the extension must not inherit that.
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // The child's ends belong to the child now.
        closeAll([stdinPipe[0], stdoutPipe[1], stderrPipe[1]])
        guard result == 0 else {
            closeAll([stdinPipe[1], stdoutPipe[0], stderrPipe[0]])
            throw SpawnError(executable: executable, errno: result)
        }
        return SpawnedProcess(pid: pid, stdinWrite: stdinPipe[1], stdoutRead: stdoutPipe[0], stderrRead: stderrPipe[0])
    }

    private static func makePipe(_ fds: inout [CInt]) -> Bool {
        guard let made = CloseOnExecPipe.make() else { return false }
        fds = made
        return true
    }

    private static func closeAll(_ descriptors: [CInt]) {
        for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
    }
}
