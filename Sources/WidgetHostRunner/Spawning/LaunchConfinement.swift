import WidgetHostBundles
import WidgetHostProtocol

/// What `posix_spawn` is given for one extension process.
public struct SpawnCommand: Sendable, Hashable {
    public var executable: String
    public var arguments: [String]
    public var environment: [String: String]
    /// The executable is a shim that reports on descriptor 3 why the extension did not start
    /// (`errno N` when its execve failed, `refused SENTENCE`); end of file: it runs.
    public var reportsOnDescriptor3: Bool

    public init(executable: String, arguments: [String], environment: [String: String], reportsOnDescriptor3: Bool = false) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.reportsOnDescriptor3 = reportsOnDescriptor3
    }
}

/// Confines an extension process before its own code runs. `posix_spawn` runs nothing of
/// ours in the child, so a confinement works by rewriting the command: an exec shim that
/// applies the rules (Landlock, `no_new_privs`, resource limits) to itself and then execs
/// the extension, or an existing tool used the same way. Issue 17's sandbox goes here; the
/// daemon, the harness and the doctor all spawn through `ProcessSpawner`, so all three run
/// extensions inside it.
public protocol LaunchConfinement: Sendable {
    /// Rewrites `command` for `launch`, or refuses the launch with the reason.
    func confine(_ command: inout SpawnCommand, for launch: ExtensionLaunch) throws(SpawnError)
    /// What `confine` does to `launch`'s processes, for `extensions` and `status`.
    func sandbox(for launch: ExtensionLaunch) -> ExtensionSandbox
}

extension LaunchConfinement {
    /// A confinement that does not describe itself applies none of the sandbox's rules.
    public func sandbox(for launch: ExtensionLaunch) -> ExtensionSandbox { .unconfined }
}

/// No confinement: the process runs as the host's user with the host's reach.
public struct Unconfined: LaunchConfinement {
    public init() {}
    public func confine(_ command: inout SpawnCommand, for launch: ExtensionLaunch) throws(SpawnError) {}
}
