import Foundation
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// What `extensions` and `status` say of an extension's sandbox: the mode, the rules applied
/// with what they leave it, the rules missing with why. Kernels are faked through
/// `SandboxSupport` (as the cgroup tests fake a cgroup root); nothing runs.
@Suite("An extension's sandbox as extensions and status show it")
struct SandboxDescriptionTests {
    static let launch = ExtensionLaunch(
        bundleID: "com.example.probe.widget", executable: "/plugins/Probe.appex/probe", directory: "/plugins/Probe.appex",
        environment: ["WIDGETHOST_APP_GROUPS": "group.com.example.probe=/var/lib/widgethost/AppGroups/group.com.example.probe"])

    struct Kernel: Sendable, CustomTestStringConvertible {
        var name: String
        var support: SandboxSupport
        var applied: [String]
        var missing: [String]
        var testDescription: String { name }
    }

    static let kernels = [
        Kernel(
            name: "Landlock ABI 7, as a daemon's own user",
            support: SandboxSupport(landlockABI: 7, seccomp: true),
            applied: ["filesystem", "tcp", "scoping", "seccomp", "noNewPrivs", "openFiles", "processes"], missing: []),
        Kernel(
            name: "Landlock ABI 5 (Linux 6.7–6.11)",
            support: SandboxSupport(landlockABI: 5, seccomp: true),
            applied: ["filesystem", "tcp", "seccomp", "noNewPrivs", "openFiles", "processes"], missing: ["scoping"]),
        Kernel(
            name: "Landlock ABI 3, run as root",
            support: SandboxSupport(landlockABI: 3, seccomp: true, processLimitUnavailable: "RLIMIT_NPROC does not bind uid 0"),
            applied: ["filesystem", "seccomp", "noNewPrivs", "openFiles"], missing: ["tcp", "scoping", "processes"]),
        Kernel(
            name: "no Landlock, no seccomp",
            support: SandboxSupport(landlockABI: 0, seccomp: false),
            applied: ["noNewPrivs", "openFiles", "processes"], missing: ["filesystem", "tcp", "scoping", "seccomp"]),
    ]

    @Test("auto lists what applies and what this kernel lacks, with why", arguments: kernels)
    func auto(kernel: Kernel) {
        let sandbox = SandboxConfinement(limits: ExtensionLimits(), support: kernel.support, temporaryRoot: "/tmp/t")
            .sandbox(for: Self.launch)
        #expect(sandbox.mode == "auto")
        #expect(sandbox.applied.map(\.rule) == kernel.applied)
        #expect(sandbox.missing.map(\.rule) == kernel.missing)
        #expect(sandbox.refused == nil)
        for missing in sandbox.missing { #expect(!missing.detail.isEmpty) }
        if kernel.missing.contains("tcp") {
            #expect(sandbox.missing.first { $0.rule == "tcp" }?.detail.contains("ABI 4, Linux 6.7") == true)
        }
    }

    @Test("required with a rule missing says every start is refused, naming the rule and the fix")
    func requiredRefused() {
        var limits = ExtensionLimits()
        limits.sandbox = .required
        let older = SandboxConfinement(
            limits: limits, support: SandboxSupport(landlockABI: 3, seccomp: true), temporaryRoot: "/tmp/t")
        let sandbox = older.sandbox(for: Self.launch)
        #expect(sandbox.mode == "required")
        #expect(sandbox.refused?.contains("Landlock TCP rules cannot be applied") == true)
        #expect(sandbox.refused?.contains("set limits.sandbox = \"auto\"") == true)
        let full = SandboxConfinement(
            limits: limits, support: SandboxSupport(landlockABI: 7, seccomp: true), temporaryRoot: "/tmp/t")
        #expect(full.sandbox(for: Self.launch).refused == nil)
    }

    @Test("off applies nothing: every rule is missing because of limits.sandbox")
    func off() {
        var limits = ExtensionLimits()
        limits.sandbox = .off
        let sandbox = ProcessSpawner.sandboxed(limits).confinement.sandbox(for: Self.launch)
        #expect(sandbox.mode == "off")
        #expect(sandbox.applied.isEmpty)
        #expect(sandbox.missing.count == SandboxRule.allCases.count)
        #expect(sandbox.missing.allSatisfy { $0.detail.contains("limits.sandbox = \"off\"") })
    }

    @Test("The details name its containers, its limits, and what the network entitlement changes")
    func details() {
        var limits = ExtensionLimits()
        limits.openFiles = 64
        limits.processes = 8
        let confinement = SandboxConfinement(
            limits: limits, support: SandboxSupport(landlockABI: 7, seccomp: true), temporaryRoot: "/tmp/t")
        func detail(_ rule: String, network: Bool = false) -> String {
            var launch = Self.launch
            launch.networkClient = network
            return confinement.sandbox(for: launch).applied.first { $0.rule == rule }?.detail ?? ""
        }
        #expect(detail("filesystem").contains("group.com.example.probe (/var/lib/widgethost/AppGroups/group.com.example.probe)"))
        #expect(detail("filesystem").contains("its TMPDIR (/tmp/t/com.example.probe.widget)"))
        #expect(detail("openFiles") == "at most 64 open descriptors (RLIMIT_NOFILE)")
        #expect(detail("processes").hasPrefix("at most 8 processes"))
        #expect(detail("tcp") == "no TCP connect or bind (no com.apple.security.network.client)")
        #expect(detail("tcp", network: true).hasPrefix("TCP connect allowed"))
        #expect(detail("seccomp").hasSuffix("Unix sockets only"))
        #expect(detail("seccomp", network: true).contains("internet sockets allowed"))
    }

    @Test("It travels as JSON and back")
    func wire() throws {
        let sandbox = SandboxConfinement(
            limits: ExtensionLimits(), support: SandboxSupport(landlockABI: 5, seccomp: true), temporaryRoot: "/tmp/t")
            .sandbox(for: Self.launch)
        let data = try WireCoding.encode(ExtensionStatus(id: "com.example.probe.widget", sandbox: sandbox))
        #expect(try WireCoding.decode(ExtensionStatus.self, from: data).sandbox == sandbox)
    }
}
