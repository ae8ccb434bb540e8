import Foundation
import Logging
import NIOCore
import NIOPosix
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
@testable import WidgetHostDaemon
@testable import WidgetHostRunner

/// `pids.max` in each extension's cgroup, where the pids controller is delegated: the
/// process limit that holds whatever the extension's uid (RLIMIT_NPROC does not bind root).
/// The adapter runs against `FakeCgroupRoot`, a plain directory standing in for cgroupfs:
/// this host has no delegated cgroup v2 subtree, and the kernel's side (that pids.max stops a
/// fork) is the kernel's. This suite, like CgroupDelegationTests, is the one place the kernel
/// is faked; the daemon suites run the sandbox's own process limit for real.
@Suite("pids.max per extension, the cgroup adapter against a fake cgroup root")
struct CgroupPidsTests {
    @Test("Delegated pids: enabled with memory in one write, and each extension's cgroup gets pids.max = limits.processes + 1")
    func pidsMax() throws {
        let fake = try FakeCgroupRoot(controllers: "cpu memory pids\n")
        defer { fake.cleanUp() }
        let placement = CgroupPlacement(delegation: try fake.prepare(), memoryLimit: 1_048_576, processLimit: 32)
        #expect(placement.limitsProcesses)
        #expect(placement.announcement.hasSuffix("memory.max = 1048576 bytes and pids.max = 33"))
        try placement.place(700, bundleID: "com.example.bomb.widget")
        let directory = "\(fake.delegated)/ext-com_example_bomb_widget-700"
        #expect(fake.read("\(directory)/pids.max") == "33")
        #expect(fake.read("\(directory)/memory.max") == "1048576")
        #expect(fake.read("\(directory)/cgroup.procs") == "700")
    }

    @Test("pids already enabled by the unit is kept; memory is added alone")
    func pidsAlreadyEnabled() throws {
        let fake = try FakeCgroupRoot()
        defer { fake.cleanUp() }
        try fake.write("\(fake.delegated)/cgroup.subtree_control", "pids\n")
        let delegation = try fake.prepare()
        #expect(delegation.pids)
        #expect(fake.read("\(fake.delegated)/cgroup.subtree_control") == "+memory")
    }

    @Test("Without the pids controller (Delegate=memory): memory only, no pids.max, and the process limit stays RLIMIT_NPROC's")
    func noPids() throws {
        let fake = try FakeCgroupRoot(controllers: "cpu memory\n")
        defer { fake.cleanUp() }
        let placement = CgroupPlacement(delegation: try fake.prepare(), memoryLimit: 1000, processLimit: 32)
        #expect(fake.read("\(fake.delegated)/cgroup.subtree_control") == "+memory")
        #expect(!placement.limitsProcesses)
        #expect(!placement.announcement.contains("pids.max"))
        try placement.place(701, bundleID: "x")
        #expect(!FileManager.default.fileExists(atPath: "\(fake.delegated)/ext-x-701/pids.max"))
    }

    @Test("The daemon's wiring: a cgroup placement with pids.max makes the process limit apply even where RLIMIT_NPROC cannot")
    func support() throws {
        let fake = try FakeCgroupRoot()
        defer { fake.cleanUp() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let (logger, lines) = RecordingLogHandler.logger()
        // (`prepare` writes this process's pid into the fake's supervisor leaf: a plain file.)
        let cgroups = try #require(
            ExtensionCgroups.make(
                mode: .auto, sources: fake.sources, memoryLimit: 1000, processLimit: 8, eventLoop: group.next(),
                logger: logger))
        #expect(cgroups.placement.limitsProcesses)
        #expect(lines.value.first?.contains("pids.max = 9") == true)

        let asRoot = SandboxSupport(landlockABI: 7, seccomp: true, processLimitUnavailable: "RLIMIT_NPROC does not bind uid 0")
        #expect(asRoot.missing.map(\.rule) == [.processes])
        var withPids = asRoot
        withPids.pidsMax = cgroups.placement.limitsProcesses
        #expect(withPids.missing.isEmpty)
        #expect(withPids.summary.contains("process limit (pids.max)"))
        var limits = ExtensionLimits()
        limits.processes = 8
        let launch = ExtensionLaunch(bundleID: "x", executable: "/p/X.appex/x", directory: "/p/X.appex", environment: [:])
        let sandbox = SandboxConfinement(limits: limits, support: withPids).sandbox(for: launch)
        #expect(sandbox.applied.first { $0.rule == "processes" }?.detail
            == "at most 8 processes and threads besides itself (pids.max = 9 in its cgroup)")
        // required no longer refuses for the process limit alone.
        limits.sandbox = .required
        #expect(SandboxConfinement(limits: limits, support: withPids).refusal == nil)
        #expect(SandboxConfinement(limits: limits, support: asRoot).refusal?.contains("the process limit") == true)
    }
}
