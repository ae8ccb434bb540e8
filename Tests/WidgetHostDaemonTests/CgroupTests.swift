import Foundation
import Logging
import NIOCore
import NIOPosix
import Testing
@testable import WidgetHostDaemon
@testable import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// A directory laid out like a cgroup v2 mount with the daemon's delegated cgroup in it, and
/// the `/proc/self` files that lead there. Files the kernel would provide are plain files.
struct FakeCgroupRoot {
    let root: String
    let delegatedPath = "/system.slice/widgethostd.service"
    var delegated: String { root + "/mnt" + delegatedPath }
    var sources: CgroupDelegation.Sources {
        CgroupDelegation.Sources(mountPoint: nil, selfCgroup: "\(root)/self-cgroup", mountInfo: "\(root)/mountinfo")
    }

    init(selfCgroup: String? = nil, controllers: String = "cpu memory pids\n") throws {
        root = try DaemonFixture.makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/mnt" + delegatedPath, withIntermediateDirectories: true)
        try write("\(root)/mountinfo", """
            24 1 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
            35 24 0:30 / \(root)/mnt rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate

            """)
        try write("\(root)/self-cgroup", selfCgroup ?? "0::\(delegatedPath)\n")
        try write("\(delegated)/cgroup.controllers", controllers)
        try write("\(delegated)/cgroup.subtree_control", "")
        try write("\(delegated)/cgroup.procs", "\(getpid())\n")
    }

    func write(_ path: String, _ text: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// cgroupfs drops interface files with the directory; a plain one needs `removeItem`.
    static let remove: @Sendable (String) -> Bool = { (try? FileManager.default.removeItem(atPath: $0)) != nil }

    func prepare() throws(CgroupUnavailable) -> CgroupDelegation {
        try CgroupDelegation.prepare(sources, pid: 4242, removeDirectory: Self.remove)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }
}

@Suite("cgroup v2 adapter against a fake cgroup root")
struct CgroupDelegationTests {
    @Test("In its delegated cgroup the daemon moves itself into the supervisor leaf, then enables memory for children")
    func preparesDelegatedCgroup() throws {
        let fake = try FakeCgroupRoot()
        defer { fake.cleanUp() }
        // Left by a previous run.
        try FileManager.default.createDirectory(
            atPath: "\(fake.delegated)/ext-com_old_widget-77", withIntermediateDirectories: false)

        let delegation = try fake.prepare()
        #expect(delegation.directory == fake.delegated)
        #expect(fake.read("\(fake.delegated)/supervisor/cgroup.procs") == "4242")
        // One write (cgroupfs takes several controllers at once); pids is offered, so it is enabled too.
        #expect(fake.read("\(fake.delegated)/cgroup.subtree_control") == "+memory +pids")
        #expect(delegation.pids)
        #expect(!FileManager.default.fileExists(atPath: "\(fake.delegated)/ext-com_old_widget-77"),
            "a stale extension cgroup is removed")
        #expect(FileManager.default.fileExists(atPath: "\(fake.delegated)/supervisor"))
    }

    @Test("Started in the supervisor leaf (DelegateSubgroup=supervisor) the daemon stays put; the parent is delegated")
    func delegateSubgroup() throws {
        let fake = try FakeCgroupRoot(selfCgroup: "1:name=systemd:/x\n0::/system.slice/widgethostd.service/supervisor\n")
        defer { fake.cleanUp() }
        try FileManager.default.createDirectory(atPath: "\(fake.delegated)/supervisor", withIntermediateDirectories: false)
        try fake.write("\(fake.delegated)/supervisor/cgroup.procs", "1\n")
        try fake.write("\(fake.delegated)/cgroup.subtree_control", "memory pids\n")

        let delegation = try fake.prepare()
        #expect(delegation.directory == fake.delegated)
        #expect(fake.read("\(fake.delegated)/supervisor/cgroup.procs") == "1\n", "not moved again")
        #expect(fake.read("\(fake.delegated)/cgroup.subtree_control") == "memory pids\n", "already enabled, not rewritten")
    }

    static let situations: [(String, String)] = [
        ("mountinfo-without-cgroup2", "no cgroup v2 hierarchy is mounted (no cgroup2 line in"),
        ("v1-only", "has no cgroup v2 line (\"0::/…\"); this host uses cgroup v1 for memory (\"4:memory:/process_api/1\")"),
        ("hybrid", "binds the memory controller to cgroup v1 on a hybrid host (\"4:memory:/system.slice/widgethostd.service\")"),
        ("root-cgroup", "widgethostd runs in the root cgroup of"),
        ("no-memory", "the memory controller is not delegated to"),
        ("not-a-cgroup", "is not a cgroup v2 directory (no cgroup.controllers)"),
    ]

    @Test("Without a usable delegated subtree, prepare says why in one sentence and changes nothing",
        arguments: situations)
    func unavailable(_ situation: String, _ expected: String) throws {
        let fake = try FakeCgroupRoot(controllers: situation == "no-memory" ? "cpu pids\n" : "cpu memory pids\n")
        defer { fake.cleanUp() }
        switch situation {
        case "mountinfo-without-cgroup2":
            try fake.write("\(fake.root)/mountinfo", "24 1 0:22 / /sys rw - sysfs sysfs rw\n")
        case "v1-only":
            try fake.write("\(fake.root)/self-cgroup", "4:memory:/process_api/1\n1:cpu:/\n")
        case "hybrid":
            // What /proc/self/cgroup says under systemd on a hybrid host: memory on v1, v2 without it.
            try fake.write("\(fake.root)/self-cgroup", """
                9:name=systemd:/system.slice/widgethostd.service
                4:memory:/system.slice/widgethostd.service
                1:cpu,cpuacct:/
                0::/system.slice/widgethostd.service

                """)
            try fake.write("\(fake.delegated)/cgroup.controllers", "\n")
        case "root-cgroup":
            try fake.write("\(fake.root)/self-cgroup", "0::/\n")
        case "not-a-cgroup":
            try fake.write("\(fake.root)/self-cgroup", "0::/system.slice/missing.service\n")
        default:
            break
        }
        let error = #expect(throws: CgroupUnavailable.self) { try fake.prepare() }
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "no error")")
        if situation == "no-memory" {
            #expect(error?.description.hasSuffix("set Delegate=yes or Delegate=memory pids in the unit") == true)
        }
        if situation == "hybrid" || situation == "v1-only" {
            // The unit already has Delegate=; the cause is the host's layout, and the notice says so.
            #expect(error?.description.contains("Delegate=") == false)
            #expect(error?.description.hasSuffix("boot with systemd.unified_cgroup_hierarchy=1 (Debian 12's default) "
                + "for a cgroup per extension") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: "\(fake.delegated)/supervisor"), "nothing was moved")
        #expect(fake.read("\(fake.delegated)/cgroup.subtree_control") == "")
    }

    @Test("An extension's cgroup gets memory.max, swap 0, oom.group 1 where offered, and the process")
    func makesExtensionGroup() throws {
        let fake = try FakeCgroupRoot()
        defer { fake.cleanUp() }
        let delegation = try fake.prepare()
        // The kernel creates these files with the directory; here they are made beforehand.
        let directory = "\(fake.delegated)/ext-com_fixture_sleeper_widget-555"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try fake.write("\(directory)/memory.swap.max", "max\n")
        try fake.write("\(directory)/memory.oom.group", "0\n")

        let group = try delegation.makeGroup(for: "com.fixture.sleeper.widget", pid: 555, memoryLimit: 30 * 1_048_576)
        #expect(group.directory == directory)
        #expect(fake.read("\(directory)/memory.max") == "31457280")
        #expect(fake.read("\(directory)/memory.swap.max") == "0")
        #expect(fake.read("\(directory)/memory.oom.group") == "1")
        #expect(fake.read("\(directory)/cgroup.procs") == "555")

        let plain = try delegation.makeGroup(for: "com.other", pid: 556, memoryLimit: 1000)
        #expect(!FileManager.default.fileExists(atPath: "\(plain.directory)/memory.swap.max"), "not invented")
    }

    @Test("memory.events oom_kill and memory.peak give the kernel's verdict and figure")
    func readsMemoryEvents() throws {
        let fake = try FakeCgroupRoot()
        defer { fake.cleanUp() }
        let group = try fake.prepare().makeGroup(for: "x", pid: 9, memoryLimit: 30 * 1_048_576)
        #expect(group.oomKills == 0, "no memory.events yet")
        try fake.write("\(group.directory)/memory.events", "low 0\nhigh 0\nmax 3\noom 0\noom_kill 0\noom_group_kill 0\n")
        #expect(group.oomKills == 0)
        try fake.write("\(group.directory)/memory.events", "low 0\nhigh 0\nmax 17\noom 1\noom_kill 2\noom_group_kill 1\n")
        #expect(group.oomKills == 2)
        #expect(group.peakBytes == 30 * 1_048_576, "without memory.peak: the limit the kernel enforced")
        try fake.write("\(group.directory)/memory.peak", "31500000\n")
        #expect(group.peakBytes == 31_500_000)
    }

    @Test("The cgroup2 mount point comes from mountinfo, on unified and hybrid hosts")
    func mountPoint() throws {
        let fake = try FakeCgroupRoot()
        defer { fake.cleanUp() }
        #expect(CgroupDelegation.cgroup2MountPoint("\(fake.root)/mountinfo") == "\(fake.root)/mnt")
        try fake.write(
            "\(fake.root)/mountinfo",
            "40 30 0:35 / /sys/fs/cgroup/memory rw,relatime shared:17 - cgroup cgroup rw,memory\n"
                + "41 30 0:36 / /sys/fs/cgroup/unified rw,relatime shared:18 - cgroup2 cgroup2 rw\n")
        #expect(CgroupDelegation.cgroup2MountPoint("\(fake.root)/mountinfo") == "/sys/fs/cgroup/unified")
        #expect(CgroupDelegation.unifiedPath("1:cpu:/\n0::/a/b\n") == "/a/b")
        #expect(CgroupDelegation.unifiedPath("1:cpu:/\n") == nil)
    }

    @Test("limits.cgroup = off never touches cgroups; auto without delegation falls back with one log line")
    func modes() throws {
        let fake = try FakeCgroupRoot()
        defer { fake.cleanUp() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let (logger, lines) = RecordingLogHandler.logger()

        #expect(ExtensionCgroups.make(mode: .off, sources: fake.sources, memoryLimit: 1, eventLoop: group.next(), logger: logger) == nil)
        #expect(lines.value.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "\(fake.delegated)/supervisor"))
        #expect(fake.read("\(fake.delegated)/cgroup.subtree_control") == "")

        try fake.write("\(fake.root)/self-cgroup", "0::/\n")
        #expect(ExtensionCgroups.make(mode: .auto, sources: fake.sources, memoryLimit: 1, eventLoop: group.next(), logger: logger) == nil)
        #expect(lines.value.count == 1)
        #expect(lines.value.first?.hasPrefix("notice: no cgroup per extension (limits.cgroup = auto): widgethostd runs in the root cgroup") == true)
        #expect(lines.value.first?.hasSuffix("sampling /proc enforces limits.memory") == true)
    }
}

/// Log lines as "level: message", for asserting what was said and how often.
struct RecordingLogHandler: LogHandler {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        var value: [String] { lock.withLock { stored } }
        func append(_ line: String) { lock.withLock { stored.append(line) } }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    static func logger() -> (Logger, Lines) {
        let lines = Lines()
        return (Logger(label: "test") { _ in RecordingLogHandler(lines: lines) }, lines)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level): \(event.message)")
    }
}
