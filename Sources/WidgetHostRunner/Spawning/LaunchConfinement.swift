import WidgetHostBundles
import WidgetHostProtocol

/// What one extension process is started with.
public struct SpawnCommand: Sendable, Hashable {
    public var executable: String
    public var arguments: [String]
    public var environment: [String: String]
    /// The rules the spawn applies in the child before its `execve` (nil: none).
    public var sandbox: SpawnSandbox?

    public init(executable: String, arguments: [String], environment: [String: String], sandbox: SpawnSandbox? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.sandbox = sandbox
    }
}

/// The rules a spawn applies to the child before its `execve` (`widgethost_spawn`, docs/security.md):
/// resource limits, `no_new_privs`, a Landlock ruleset of these paths, the seccomp filter.
public struct SpawnSandbox: Sendable, Hashable {
    /// Read and execute beneath each (a file: that file only); `/proc/self` is the child's own.
    public var read: [String]
    /// Read and write beneath each.
    public var write: [String]
    /// TCP connect, internet and netlink sockets (`com.apple.security.network.client`).
    public var network: Bool
    /// The newest Landlock ABI to use (what the host found, or a faked older kernel); 0: none.
    public var landlockABI: Int
    public var seccomp: Bool
    /// `RLIMIT_NOFILE`; nil: unchanged.
    public var openFiles: Int?
    /// `RLIMIT_NPROC` over the tasks the user has at the spawn; nil: unchanged.
    public var processes: Int?
    /// A rule that cannot be applied refuses the spawn (`limits.sandbox = "required"`).
    public var required: Bool

    public init(
        read: [String], write: [String], network: Bool, landlockABI: Int, seccomp: Bool, openFiles: Int?, processes: Int?,
        required: Bool
    ) {
        self.read = read
        self.write = write
        self.network = network
        self.landlockABI = landlockABI
        self.seccomp = seccomp
        self.openFiles = openFiles
        self.processes = processes
        self.required = required
    }
}

/// Confines an extension process before its own code runs, by giving its command the rules
/// the spawn applies in the child (`SpawnSandbox`) and the environment they call for. Issue
/// 17's sandbox goes here; the daemon, the harness and the doctor all spawn through
/// `ProcessSpawner`, so all three run extensions inside it.
public protocol LaunchConfinement: Sendable {
    /// Confines `command` for `launch`, or refuses the launch with the reason.
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
