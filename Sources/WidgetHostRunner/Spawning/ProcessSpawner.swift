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
    /// Host side of the child's stderr (we read); -1 when the caller gave the child its stderr.
    public let stderrRead: CInt
}

/// A process's stdin and stdout pipes made ahead of its spawn (`ProcessSpawner.spawn(_:stdio:stderr:)`):
/// the daemon makes the next process's while its extension has none running, so that reading
/// them is set up off a cold start's path. All four ends close on exec.
public struct SpawnStdio: Sendable {
    /// The child's stdin (closed by the spawn once the child has it).
    public let stdinRead: CInt
    /// Host side of the child's stdin (we write).
    public let stdinWrite: CInt
    /// Host side of the child's stdout (we read).
    public let stdoutRead: CInt
    /// The child's stdout (closed by the spawn once the child has it).
    public let stdoutWrite: CInt

    /// Two new pipes, or nil with `errno` set.
    public static func make() -> SpawnStdio? {
        guard let stdin = CloseOnExecPipe.make() else { return nil }
        guard let stdout = CloseOnExecPipe.make() else {
            let saved = errno
            close(stdin[0])
            close(stdin[1])
            errno = saved
            return nil
        }
        return SpawnStdio(stdinRead: stdin[0], stdinWrite: stdin[1], stdoutRead: stdout[0], stdoutWrite: stdout[1])
    }

    /// Closes the child's two ends (pipes that will not be used; the host's are the caller's).
    public func closeChildEnds() {
        close(stdinRead)
        close(stdoutWrite)
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

/// The one way an extension process starts (`widgethost_spawn`, Sources/CSpawn/spawn.c): a
/// new process group (so a kill reaches its children too), default signal dispositions, no
/// descriptor but its three pipes, the launch's environment only (cleared but for what
/// `ExtensionLaunch` put there), and the sandbox applied in the child before its `execve`.
///
/// Every extension process of the daemon, the harness and the doctor starts here, after its
/// `confinement` has had its say: the one place a sandbox is applied before the extension's
/// own code runs (issue 17). The call returns once the child has exec'd the extension (its
/// failure, a missing interpreter or a refused rule, is the spawn's error), as `posix_spawn` does.
public struct ProcessSpawner: Sendable {
    public var confinement: any LaunchConfinement

    public init(confinement: any LaunchConfinement = Unconfined()) {
        self.confinement = confinement
    }

    /// Starts `launch`'s executable, confined. `stdio`: its stdin and stdout pipes, made ahead
    /// (`SpawnStdio`); the spawn closes their child's ends once the child has them, and returns
    /// the host's; when it throws, all four are still the caller's. `stderr`: the write end of
    /// a pipe the caller keeps, to be the child's stderr instead of a pipe of its own (the
    /// daemon keeps one per extension, `ExtensionStderr`); the caller still owns it, and
    /// `stderrRead` is -1.
    public func spawn(_ launch: ExtensionLaunch, stdio: SpawnStdio? = nil, stderr: CInt? = nil) throws(SpawnError)
        -> SpawnedProcess
    {
        let command = try confinedCommand(for: launch)
        return try Self.spawn(command, strings: commands.strings(for: command), stdio: stdio, stderr: stderr)
    }

    /// `launch`'s command as its confinement gives it: its executable, no arguments, its
    /// environment, the sandbox's rules.
    private func confinedCommand(for launch: ExtensionLaunch) throws(SpawnError) -> SpawnCommand {
        var command = SpawnCommand(executable: launch.executable, arguments: [], environment: launch.environment)
        try confinement.confine(&command, for: launch)
        return command
    }

    /// Makes the Landlock ruleset `launch`'s next spawn takes (`widgethost_prepare_ruleset`:
    /// ~30 paths opened and added, 0.1–0.3 ms), off that start's path. The daemon calls it when
    /// the extension's process has exited: made right after the clone, it ran on the loading
    /// extension's CPU while the extension waited (`sched_switch` traces, docs/benchmarks.md).
    /// Nothing happens for a launch the confinement refuses or leaves without Landlock.
    public func prepareNextSpawn(of launch: ExtensionLaunch) {
        guard let command = try? confinedCommand(for: launch) else { return }
        Self.prepare(commands.strings(for: command))
    }

    /// How many spawns in this process took a ruleset made ahead rather than making their
    /// own (tests: a path that changed is granted as it is now; the daemon's exit makes one).
    public static var preparedRulesetsTaken: UInt { UInt(widgethost_prepared_rulesets_taken()) }

    /// Makes the ruleset the next `spawn(command)` takes (`prepareNextSpawn(of:)`).
    public static func prepareNextSpawn(of command: SpawnCommand) {
        prepare(SpawnStrings(command))
    }

    private static func prepare(_ strings: SpawnStrings) {
        strings.withSandbox { sandbox in
            if let sandbox { widgethost_prepare_ruleset(sandbox) }
        }
    }

    /// Each command's C strings, kept for its next spawn (`SpawnStrings`).
    private let commands = PreparedCommands()

    /// Starts `command`: its executable with exactly its arguments and environment, confined by its sandbox.
    public static func spawn(_ command: SpawnCommand) throws(SpawnError) -> SpawnedProcess {
        try spawn(command, strings: SpawnStrings(command))
    }

    private static func spawn(
        _ command: SpawnCommand, strings: SpawnStrings, stdio given: SpawnStdio? = nil, stderr givenStderr: CInt? = nil
    ) throws(SpawnError) -> SpawnedProcess {
        let executable = command.executable
        let stdio: SpawnStdio
        if let given {
            stdio = given
        } else {
            guard let made = SpawnStdio.make() else { throw SpawnError(executable: executable, errno: errno) }
            stdio = made
        }
        // A given stderr stands where the pipe's ends would: the child's end is the caller's
        // (never closed here), and there is no read end.
        var stderrPipe: [CInt] = givenStderr.map { [-1, $0] } ?? [-1, -1]
        guard givenStderr != nil || makePipe(&stderrPipe) else {
            let saved = errno
            if given == nil {
                stdio.closeChildEnds()
                closeAll([stdio.stdinWrite, stdio.stdoutRead])
            }
            throw SpawnError(executable: executable, errno: saved)
        }

        var failure = widgethost_spawn_failure()
        let pid: pid_t = strings.withSandbox { sandbox in
            widgethost_spawn(
                executable, strings.argv, strings.envp, stdio.stdinRead, stdio.stdoutWrite, stderrPipe[1], sandbox,
                &failure)
        }
        // The child's ends belong to the child now (given ones once it has them; a given
        // stderr stays the caller's).
        if pid > 0 || given == nil { stdio.closeChildEnds() }
        if givenStderr == nil { closeAll([stderrPipe[1]]) }
        guard pid > 0 else {
            closeAll([stderrPipe[0]] + (given == nil ? [stdio.stdinWrite, stdio.stdoutRead] : []))
            let reason = withUnsafeBytes(of: failure.reason) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !reason.isEmpty { throw SpawnError(executable: executable, reason: reason) }
            throw SpawnError(executable: executable, errno: failure.error)
        }
        return SpawnedProcess(pid: pid, stdinWrite: stdio.stdinWrite, stdoutRead: stdio.stdoutRead, stderrRead: stderrPipe[0])
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
