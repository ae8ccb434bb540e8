import CSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One rule of the sandbox, as the host names it in logs, refusals and `status`.
public enum SandboxRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Landlock filesystem rules: the bundle read-only, the app groups read-write, nothing else.
    case filesystem
    /// Landlock TCP rules: no bind, no connect without `com.apple.security.network.client` (ABI 4).
    case tcp
    /// Landlock scoping: no signals to, and no abstract Unix sockets of, processes outside (ABI 6).
    case scoping
    /// The seccomp filter: no ptrace, namespaces, mounts, keyrings, BPF; only AF_UNIX sockets
    /// without the network entitlement.
    case seccomp
    /// `PR_SET_NO_NEW_PRIVS`: setuid files and file capabilities grant nothing (always applied).
    case noNewPrivs
    /// `RLIMIT_NOFILE = limits.open_files` (always applied).
    case openFiles
    /// `RLIMIT_NPROC` over the user's tasks, or `pids.max` in the extension's cgroup.
    case processes

    public var description: String {
        switch self {
        case .filesystem: "Landlock filesystem rules"
        case .tcp: "Landlock TCP rules"
        case .scoping: "Landlock signal and abstract-socket scoping"
        case .seccomp: "the seccomp filter"
        case .noNewPrivs: "no_new_privs"
        case .openFiles: "the open-files limit"
        case .processes: "the process limit"
        }
    }
}

/// What this kernel and this host offer the sandbox: probed once, faked in tests (as the
/// cgroup tests fake a cgroup root) to stand for an older kernel.
public struct SandboxSupport: Sendable, Hashable {
    /// The Landlock ABI (0: none; 1 filesystem, 4 TCP, 6 scoping, 7 audit logging).
    public var landlockABI: Int
    public var seccomp: Bool
    /// Why `RLIMIT_NPROC` cannot limit processes (uid 0), or nil when it can.
    public var processLimitUnavailable: String?
    /// Each extension's cgroup has `pids.max` (a delegated cgroup with the pids controller),
    /// which limits its tasks whatever its uid.
    public var pidsMax: Bool

    public init(landlockABI: Int, seccomp: Bool, processLimitUnavailable: String? = nil, pidsMax: Bool = false) {
        self.landlockABI = landlockABI
        self.seccomp = seccomp
        self.processLimitUnavailable = processLimitUnavailable
        self.pidsMax = pidsMax
    }

    /// The newest Landlock ABI whose rules the confined child (`widgethost_spawn`) asks for.
    public static let newestKnownABI = 7

    /// This kernel, as the host's user sees it.
    public static func probe() -> SandboxSupport {
        SandboxSupport(
            landlockABI: min(Int(widgethost_landlock_abi()), newestKnownABI),
            seccomp: widgethost_seccomp_available() != 0,
            processLimitUnavailable: getuid() == 0
                ? "RLIMIT_NPROC does not bind uid 0; run widgethostd as its own user (the unit's User=widgethost) or give it a delegated cgroup (pids.max)"
                : nil)
    }

    /// The rules that cannot be applied here, each with the reason and what would provide it.
    public var missing: [(rule: SandboxRule, reason: String)] {
        var missing: [(SandboxRule, String)] = []
        if landlockABI < 1 {
            missing.append((.filesystem, "the kernel offers no Landlock (Linux 5.13+ with landlock in lsm=)"))
        }
        if landlockABI < 4 {
            missing.append((.tcp, "Landlock ABI \(landlockABI) has no TCP rules (ABI 4, Linux 6.7)"))
        }
        if landlockABI < 6 {
            missing.append((.scoping, "Landlock ABI \(landlockABI) cannot scope signals (ABI 6, Linux 6.12)"))
        }
        if !seccomp { missing.append((.seccomp, "the kernel has no seccomp filters (CONFIG_SECCOMP_FILTER)")) }
        if let processLimitUnavailable, !pidsMax { missing.append((.processes, processLimitUnavailable)) }
        return missing
    }

    /// One line for the log at start and for `status`: what applies, and what does not.
    public var summary: String {
        var applied: [String] = []
        if landlockABI > 0 { applied.append("Landlock ABI \(landlockABI)") }
        if seccomp { applied.append("seccomp") }
        applied.append("no_new_privs")
        applied.append("open-files limit")
        if pidsMax {
            applied.append("process limit (pids.max)")
        } else if processLimitUnavailable == nil {
            applied.append("process limit")
        }
        let missing = self.missing
        guard !missing.isEmpty else { return applied.joined(separator: ", ") }
        return applied.joined(separator: ", ") + "; missing: "
            + missing.map { "\($0.rule) (\($0.reason))" }.joined(separator: "; ")
    }
}
