import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// A bundle holding the hostile probe (Tests/Fixtures/Sandbox/probe.py), its own app group,
/// another app's group and a secret file outside both, in a fresh directory; each attempt
/// runs in a real process through widgethost-sandbox on this kernel.
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
    func run(
        _ attempt: String, network: Bool = false, confinement: (any LaunchConfinement)? = nil
    ) throws -> String {
        let spawned = try ProcessSpawner(confinement: confinement ?? self.confinement())
            .spawn(launch(attempt, network: network))
        close(spawned.stdinWrite)
        let output = Self.readAll(spawned.stdoutRead)
        let errors = Self.readAll(spawned.stderrRead)
        var status: CInt = 0
        waitpid(spawned.pid, &status, 0)
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

/// Runs the confined command as `nobody` (setpriv): RLIMIT_NPROC does not bind uid 0, and the
/// tests run as root in CI.
struct AsNobody: LaunchConfinement {
    var inner: SandboxConfinement
    func confine(_ command: inout SpawnCommand, for launch: ExtensionLaunch) throws(SpawnError) {
        try inner.confine(&command, for: launch)
        guard getuid() == 0 else { return }
        command.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", command.executable] + command.arguments
        command.executable = "/usr/bin/setpriv"
    }
}
