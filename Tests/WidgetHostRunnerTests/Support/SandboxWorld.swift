import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// A bundle holding the hostile probe (Tests/Fixtures/Sandbox/probe.py), its own app group,
/// another app's group and a secret file outside both, in a fresh directory; each attempt
/// runs in a real process, confined by the spawn, on this kernel.
struct SandboxWorld {
    static let probe = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Sandbox/probe.py").path
    static let kernel = SandboxSupport.probe()

    let root: String
    var bundle: String { root + "/Probe.appex" }
    var ownGroup: String { root + "/AppGroups/group.com.example.probe" }
    var otherGroup: String { root + "/AppGroups/group.com.example.other" }
    /// Stands for /etc/shadow: readable by the host, outside every grant.
    var secret: String { root + "/secret" }

    init() throws {
        root = NSTemporaryDirectory() + "sandbox-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let files = FileManager.default
        try files.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try files.copyItem(atPath: Self.probe, toPath: bundle + "/probe")
        // Readable by nobody (`AsNobody`) whatever umask another test's thread has set meanwhile.
        for path in [root, bundle, bundle + "/probe"] { chmod(path, 0o755) }
        for group in [ownGroup, otherGroup] {
            try AppGroupContainer.make(at: group)
            try "the app's data\n".write(toFile: group + "/widget.json", atomically: false, encoding: .utf8)
        }
        try "root:$6$secret\n".write(toFile: secret, atomically: false, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    func launch(_ attempt: String, network: Bool = false) -> ExtensionLaunch {
        ExtensionLaunch(
            bundleID: "com.example.probe.widget", executable: bundle + "/probe", directory: bundle,
            environment: [
                "PATH": "/usr/bin:/bin", "SANDBOX_ATTEMPT": attempt, "WIDGETHOST_BUNDLE": bundle,
                "WIDGETHOST_APP_GROUPS": "group.com.example.probe=\(ownGroup)",
            ],
            networkClient: network)
    }

    func confinement(_ limits: ExtensionLimits = ExtensionLimits(), support: SandboxSupport = SandboxWorld.kernel)
        -> SandboxConfinement
    {
        SandboxConfinement(limits: limits, support: support, temporaryRoot: root + "/tmp")
    }

    /// What the probe printed for `attempt` ("ok", "refused EACCES", "count N"), or its stderr.
    /// `asNobody`: the spawn runs as `nobody` (`AsNobody`), its command prepared as root.
    func run(
        _ attempt: String, network: Bool = false, confinement: (any LaunchConfinement)? = nil, asNobody: Bool = false
    ) throws -> String {
        let launch = launch(attempt, network: network)
        var command = SpawnCommand(executable: launch.executable, arguments: [], environment: launch.environment)
        try (confinement ?? self.confinement()).confine(&command, for: launch)
        let spawned = try asNobody ? AsNobody.run { try ProcessSpawner.spawn(command) } : ProcessSpawner.spawn(command)
        close(spawned.stdinWrite)
        let output = Self.readAll(spawned.stdoutRead)
        let errors = Self.readAll(spawned.stderrRead)
        var status: CInt = 0
        waitpid(spawned.pid, &status, 0)
        // As the daemon does once an extension's process has exited.
        ProcessSpawner.prepareNextSpawn(of: command)
        let line = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return line.isEmpty ? "no answer; stderr: " + errors : line
    }

    static func readAll(_ descriptor: CInt) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        close(descriptor)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Runs `body` on this thread as `nobody` (uid and gid 65534), then as root again: the kernel
/// keeps credentials per thread, and the raw system call (unlike glibc's `setresuid`, which
/// changes every thread's) changes this one's only, so the spawn inside counts and limits
/// `nobody`'s tasks as a daemon run as its own user does (uid 0 is exempt from RLIMIT_NPROC).
/// The saved ids stay 0 so that the thread can return; the extension's `execve` drops them.
enum AsNobody {
    private typealias Syscall = @convention(c) (Int, Int, Int, Int) -> Int
    #if arch(x86_64)
    private static let (SYS_setresuid, SYS_setresgid) = (117, 119)
    #else
    private static let (SYS_setresuid, SYS_setresgid) = (147, 149)  // aarch64, riscv64: the generic table
    #endif
    private static let call: Syscall? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syscall")
        .map { unsafeBitCast($0, to: Syscall.self) }

    static func run<T>(_ body: () throws -> T) throws -> T {
        guard getuid() == 0 else { return try body() }
        guard let call, call(SYS_setresgid, 65534, 65534, 0) == 0 else { throw POSIXError(.EPERM) }
        guard call(SYS_setresuid, 65534, 65534, 0) == 0 else {
            _ = call(SYS_setresgid, 0, 0, 0)
            throw POSIXError(.EPERM)
        }
        defer {
            _ = call(SYS_setresuid, 0, 0, 0)
            _ = call(SYS_setresgid, 0, 0, 0)
        }
        return try body()
    }
}
