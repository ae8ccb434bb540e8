import CSpawn
import Foundation
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// A hostile extension inside the sandbox, on this kernel: each attempt is a real
/// process, refused by the kernel (docs/security.md lists which rule stops which).
@Suite(
    "The sandbox refuses what a hostile extension tries", .tags(.process), .serialized,
    .enabled(if: SandboxWorld.kernel.landlockABI >= 1, "this kernel offers no Landlock (lsm= lacks landlock)"))
struct SandboxTests {
    /// One attempt of the probe, in a fresh world: what it must answer inside the sandbox and,
    /// where the test checks it, outside (so that the refusal is the sandbox's). `{own}`,
    /// `{other}`, `{bundle}`, `{root}`, `{secret}` and `{pid}` stand for the world's paths.
    struct Attempt: Sendable, CustomTestStringConvertible {
        var name: String
        var attempt: String
        var confined: String
        var unconfined: String? = nil
        var testDescription: String { name }

        func resolved(in world: SandboxWorld) -> String {
            [("{own}", world.ownGroup), ("{other}", world.otherGroup), ("{bundle}", world.bundle), ("{root}", world.root),
             ("{secret}", world.secret), ("{pid}", "\(getpid())")]
                .reduce(attempt) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
        }
    }

    static let attempts = [
        // Positive controls: what an extension may do.
        Attempt(name: "read its own app group", attempt: "read {own}/widget.json", confined: "ok"),
        Attempt(name: "write its own app group", attempt: "write {own}/entry.json", confined: "ok"),
        Attempt(name: "read its bundle", attempt: "read {bundle}/probe", confined: "ok"),
        Attempt(name: "list its bundle", attempt: "list {bundle}", confined: "ok"),
        Attempt(name: "write its TMPDIR", attempt: "write {root}/tmp/com.example.probe.widget/scratch", confined: "ok"),
        // Reading outside: another app's group, a file outside every grant, the host's files.
        Attempt(name: "read another app's group", attempt: "read {other}/widget.json", confined: "refused EACCES", unconfined: "ok"),
        Attempt(name: "list another app's group", attempt: "list {other}", confined: "refused EACCES"),
        Attempt(name: "read a secret outside every grant", attempt: "read {secret}", confined: "refused EACCES", unconfined: "ok"),
        Attempt(name: "read /etc/hostname", attempt: "read /etc/hostname", confined: "refused EACCES"),
        Attempt(name: "list /root", attempt: "list /root", confined: "refused EACCES"),
        // Writing outside: its bundle, another group, anywhere else.
        Attempt(name: "write its bundle's executable", attempt: "write {bundle}/probe", confined: "refused EACCES"),
        Attempt(name: "write its Info.plist", attempt: "write {bundle}/Info.plist", confined: "refused EACCES"),
        Attempt(name: "write another app's group", attempt: "write {other}/widget.json", confined: "refused EACCES"),
        Attempt(name: "plant a file beside the containers", attempt: "write {root}/planted", confined: "refused EACCES"),
        Attempt(name: "plant a file in /tmp", attempt: "write /tmp/planted-by-an-extension-{pid}", confined: "refused EACCES"),
        // /proc/self is its own /proc/PID (granted by the spawned child); the host's is not.
        Attempt(name: "read its own /proc/self/status", attempt: "read /proc/self/status", confined: "ok"),
        Attempt(name: "read the host's /proc/PID/environ", attempt: "read /proc/{pid}/environ", confined: "refused EACCES", unconfined: "ok"),
        // Its process group is how the control socket knows it; no_new_privs is set.
        Attempt(name: "leave its process group", attempt: "setsid -", confined: "refused EPERM", unconfined: "ok"),
        Attempt(name: "no_new_privs", attempt: "nnp -", confined: "count 1"),
    ]

    @Test("What an extension may and may not reach", arguments: attempts)
    func attempt(_ attempt: Attempt) throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        #expect(try world.run(attempt.resolved(in: world)) == attempt.confined)
        if let unconfined = attempt.unconfined {
            #expect(try world.run(attempt.resolved(in: world), confinement: Unconfined()) == unconfined)
        }
        #expect(!FileManager.default.fileExists(atPath: world.root + "/planted"))
    }

    @Test(
        "TCP is refused without com.apple.security.network.client and connects with it",
        .enabled(if: SandboxWorld.kernel.landlockABI >= 4, "Landlock ABI 4 (TCP rules) is missing"))
    func tcp() throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        let listener = try TCPListener()
        defer { listener.close() }
        #expect(try world.run("tcp 127.0.0.1:\(listener.port)") == "refused EAFNOSUPPORT")
        #expect(try world.run("udp -") == "refused EAFNOSUPPORT")
        #expect(try world.run("tcp 127.0.0.1:\(listener.port)", network: true) == "ok")
        // UDP cannot be told apart by Landlock: with the entitlement it is allowed (docs/security.md).
        #expect(try world.run("udp -", network: true) == "ok")
    }

    @Test(
        "Signals to the host and abstract sockets outside the sandbox are refused",
        .enabled(if: SandboxWorld.kernel.landlockABI >= 6, "Landlock ABI 6 (scoping) is missing"))
    func scoping() throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        // A process outside the sandbox stands for the host (the daemon's own test does SIGKILL).
        let outside = try Self.outsideProcess()
        defer { outside.terminate() }
        #expect(try world.run("signal \(outside.processIdentifier)") == "refused EPERM")
        #expect(outside.isRunning)
        let name = "widgethost-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try AbstractListener(name: name)
        defer { listener.close() }
        #expect(try world.run("abstract \(name)") == "refused EPERM")
        #expect(try world.run("abstract \(name)", confinement: Unconfined()) == "ok")
    }

    @Test("ptrace of a process outside is refused")
    func ptraceAndPrivileges() throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        let outside = try Self.outsideProcess()
        defer { outside.terminate() }
        #expect(try world.run("ptrace \(outside.processIdentifier)") == "refused EPERM")
    }

    /// A process outside the sandbox, for 30 s: the target of signals and ptrace.
    static func outsideProcess() throws -> Process {
        let outside = Process()
        outside.executableURL = URL(fileURLWithPath: "/bin/sleep")
        outside.arguments = ["30"]
        try outside.run()
        return outside
    }

    @Test("100,000 open files stop at limits.open_files", arguments: [256, 64])
    func openFiles(limit: Int) throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        var limits = ExtensionLimits()
        limits.openFiles = limit
        let answer = try world.run("files 100000", confinement: world.confinement(limits))
        let count = Int(answer.split(separator: " ").last ?? "") ?? -1
        // Three standard descriptors and Python's own are already open.
        #expect(count > limit - 16 && count < limit, "\(answer)")
    }

    @Test(
        "A fork bomb stops at limits.processes",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv (util-linux) is missing"),
        arguments: [8, 20])
    func forkBomb(processes: Int) throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        var limits = ExtensionLimits()
        limits.processes = processes
        let answer = try world.run("forks 10000", confinement: world.confinement(limits), asNobody: true)
        let count = Int(answer.split(separator: " ").last ?? "") ?? -1
        #expect(count >= 1 && count <= processes, "\(answer)")
    }

    @Test("required refuses to start an extension when the kernel lacks a rule, naming it")
    func requiredRefuses() throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        var limits = ExtensionLimits()
        limits.sandbox = .required
        let older = SandboxSupport(landlockABI: 3, seccomp: true)
        let error = #expect(throws: SpawnError.self) {
            try world.run("read \(world.ownGroup)/widget.json", confinement: world.confinement(limits, support: older))
        }
        #expect(error?.description.contains("limits.sandbox = \"required\" and Landlock TCP rules cannot be applied") == true)
        #expect(error?.description.contains("Landlock ABI 3 has no TCP rules") == true)
    }

    @Test(
        "auto applies what an older kernel offers: its filesystem rules, and seccomp still refuses internet sockets",
        arguments: [1, 3])
    func autoFallsBack(abi: Int) throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        let confinement = world.confinement(support: SandboxSupport(landlockABI: abi, seccomp: true))
        #expect(try world.run("read \(world.secret)", confinement: confinement) == "refused EACCES")
        #expect(try world.run("write \(world.bundle)/probe", confinement: confinement) == "refused EACCES")
        #expect(try world.run("read \(world.ownGroup)/widget.json", confinement: confinement) == "ok")
        #expect(try world.run("write \(world.ownGroup)/entry.json", confinement: confinement) == "ok")
        let listener = try TCPListener()
        defer { listener.close() }
        #expect(try world.run("tcp 127.0.0.1:\(listener.port)", confinement: confinement) == "refused EAFNOSUPPORT")
        #expect(try world.run("tcp 127.0.0.1:\(listener.port)", network: true, confinement: confinement) == "ok")
    }

    @Test("A rule that fails in the spawned child refuses the spawn in required mode, naming it; auto starts the extension")
    func childRuleFails() throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        // Above fs.nr_open (1,048,576 by default) RLIMIT_NOFILE is refused, even to root.
        var limits = ExtensionLimits()
        limits.openFiles = 1 << 30
        #expect(try world.run("nnp -", confinement: world.confinement(limits)) == "count 1")
        limits.sandbox = .required
        // Every rule but this one applies here (as root, the process limit is the cgroup's pids.max).
        let support = SandboxSupport(
            landlockABI: SandboxWorld.kernel.landlockABI, seccomp: true,
            processLimitUnavailable: getuid() == 0 ? "uid 0" : nil, pidsMax: true)
        let error = #expect(throws: SpawnError.self) {
            try world.run("nnp -", confinement: world.confinement(limits, support: support))
        }
        #expect(
            error?.description
                == "cannot start \(world.bundle)/probe: limits.sandbox = \"required\" and the open-files limit (setrlimit RLIMIT_NOFILE) failed: Operation not permitted")
    }

    @Test("A failed execve in the confined child fails the spawn as posix_spawn's own would: the errno, no process")
    func execFailure() throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        var launch = world.launch("nnp -")
        launch.executable = world.bundle + "/missing"
        let error = #expect(throws: SpawnError.self) { try ProcessSpawner(confinement: world.confinement()).spawn(launch) }
        #expect(error?.errno == ENOENT)
        #expect(error?.description == "cannot start \(world.bundle)/missing: No such file or directory")
    }

    @Test("A ruleset made ahead is taken only while every path names what it named: a replaced, a removed and a new container")
    func preparedRuleset() throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        let files = FileManager.default
        let aside = world.root + "/aside"
        // The first spawn makes the next one's ruleset; with nothing changed, the next takes it.
        #expect(try world.run("write \(world.ownGroup)/first") == "ok")
        var taken = widgethost_prepared_rulesets_taken()
        #expect(try world.run("write \(world.ownGroup)/second") == "ok")
        #expect(widgethost_prepared_rulesets_taken() > taken)
        // The container replaced by rename: its old directory, now outside every grant, is
        // refused; the new one at the path is granted.
        try files.moveItem(atPath: world.ownGroup, toPath: aside)
        try files.createDirectory(atPath: world.ownGroup, withIntermediateDirectories: false)
        #expect(try world.run("write \(aside)/third") == "refused EACCES")
        #expect(try world.run("write \(world.ownGroup)/third") == "ok")
        // Removed: nothing to write into. Made again: granted at once.
        try files.removeItem(atPath: world.ownGroup)
        #expect(try world.run("write \(world.ownGroup)/fourth") == "refused ENOENT")
        try files.createDirectory(atPath: world.ownGroup, withIntermediateDirectories: false)
        taken = widgethost_prepared_rulesets_taken()
        #expect(try world.run("write \(world.ownGroup)/fifth") == "ok")
        #expect(try world.run("write \(aside)/fifth") == "refused EACCES")
        #expect(widgethost_prepared_rulesets_taken() > taken)
    }

    @Test("PATH keeps only directories the extension may read")
    func path() throws {
        let world = try SandboxWorld()
        defer { world.remove() }
        let profile = try SandboxProfile(world.launch("nnp -"), limits: ExtensionLimits(), temporaryRoot: world.root + "/tmp")
        #expect(profile.path(from: "/root/.pyenv/shims:/usr/local/bin:/usr/bin:/bin") == "/usr/local/bin:/usr/bin:/bin")
        #expect(profile.path(from: "/root/bin") == ExtensionLaunch.defaultPath)
        #expect(profile.path(from: nil) == ExtensionLaunch.defaultPath)
    }
}

/// A TCP listener on 127.0.0.1 at a port the kernel picks.
struct TCPListener {
    let descriptor: CInt
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() { _ = Glibc.close(descriptor) }
}

/// A listener on the abstract Unix socket `name` (a NUL first byte: no file).
struct AbstractListener {
    let descriptor: CInt

    init(name: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = [UInt8(0)] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 }
        }
        guard bound, listen(descriptor, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    func close() { _ = Glibc.close(descriptor) }
}
