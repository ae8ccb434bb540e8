import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol

extension SandboxConfinement {
    /// What the spawn applies to `launch`'s processes on this kernel, and what it cannot: what
    /// `extensions` and `status` show. Makes nothing (the profile's temporary directory is
    /// made when a process starts).
    public func sandbox(for launch: ExtensionLaunch) -> ExtensionSandbox {
        let missing = support.missing
        let applied = SandboxRule.allCases.filter { rule in !missing.contains { $0.rule == rule } }
        return ExtensionSandbox(
            mode: mode.rawValue,
            applied: applied.map { SandboxRuleState(rule: $0.rawValue, detail: detail(of: $0, for: launch)) },
            missing: missing.map { SandboxRuleState(rule: $0.rule.rawValue, detail: $0.reason) },
            refused: refusal)
    }

    /// What an applied `rule` leaves `launch`'s processes.
    func detail(of rule: SandboxRule, for launch: ExtensionLaunch) -> String {
        let network = launch.networkClient
        switch rule {
        case .filesystem:
            let temporary = (temporaryRoot as NSString).appendingPathComponent(launch.bundleID)
            let groups = launch.appGroupContainers.map { "\($0.group) (\($0.container))" }
            return "reads its bundle and the system's runtime; reads and writes "
                + (groups + ["its TMPDIR (\(temporary))"]).joined(separator: ", ") + "; nothing else"
        case .tcp:
            return network
                ? "TCP connect allowed (com.apple.security.network.client); no port bound"
                : "no TCP connect or bind (no com.apple.security.network.client)"
        case .scoping:
            return "signals and abstract Unix sockets reach only its own processes"
        case .seccomp:
            return "no ptrace, namespaces, mounts, keyrings or BPF; "
                + (network ? "internet sockets allowed (com.apple.security.network.client)" : "Unix sockets only")
        case .noNewPrivs:
            return "setuid files and file capabilities grant nothing"
        case .openFiles:
            return "at most \(limits.openFiles) open descriptors (RLIMIT_NOFILE)"
        case .processes:
            if support.pidsMax {
                return "at most \(limits.processes) processes and threads besides itself (pids.max = \(limits.processes + 1) in its cgroup)"
            }
            return "at most \(limits.processes) processes and threads beyond its user's (RLIMIT_NPROC)"
        }
    }
}

extension ExtensionSandbox {
    /// `limits.sandbox = "off"`: no rule applies.
    public static let unconfined = ExtensionSandbox(
        mode: SandboxMode.off.rawValue, applied: [],
        missing: SandboxRule.allCases.map {
            SandboxRuleState(
                rule: $0.rawValue,
                detail: "limits.sandbox = \"off\": the extension runs with the host's reach; set limits.sandbox = \"auto\"")
        })
}
