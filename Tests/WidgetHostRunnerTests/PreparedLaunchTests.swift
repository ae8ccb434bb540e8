import Foundation
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostRunner

/// `SandboxConfinement` works out a launch's rules, PATH and TMPDIR once and reuses
/// them (issue 16: 0.32 M instructions and eight syscalls before every cold start). Reused, the
/// command is the one a first spawn gets; a launch that differs gets its own; a temporary
/// directory removed in between is made again.
@Suite("The sandbox's command, prepared once per launch")
struct PreparedLaunchTests {
    private func confinement(root: String) -> SandboxConfinement {
        SandboxConfinement(
            limits: ExtensionLimits(), support: SandboxSupport(landlockABI: 7, seccomp: true),
            temporaryRoot: root)
    }

    private func launch(_ bundleID: String, path: String = "/usr/bin:/bin:/home/someone/.pyenv/shims") -> ExtensionLaunch {
        ExtensionLaunch(
            bundleID: bundleID, executable: "/plugins/\(bundleID).appex/probe", directory: "/plugins/\(bundleID).appex",
            environment: ["PATH": path, "WIDGETHOST_APP_GROUPS": ""])
    }

    private func command(_ confinement: SandboxConfinement, _ launch: ExtensionLaunch) throws -> SpawnCommand {
        var command = SpawnCommand(executable: launch.executable, arguments: ["--flag"], environment: launch.environment)
        try confinement.confine(&command, for: launch)
        return command
    }

    @Test("A command whose environment is not its launch's keeps it, with the prepared PATH and TMPDIR set in it")
    func ownEnvironment() throws {
        let root = NSTemporaryDirectory() + "whprepared-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sandbox = confinement(root: root)
        let launch = launch("com.example.c")
        let first = try command(sandbox, launch)
        var extra = SpawnCommand(
            executable: launch.executable, arguments: ["--flag"], environment: launch.environment.merging(["EXTRA": "1"]) { $1 })
        try sandbox.confine(&extra, for: launch)
        #expect(extra.environment["EXTRA"] == "1")
        #expect(extra.environment["PATH"] == first.environment["PATH"] && extra.environment["TMPDIR"] == first.environment["TMPDIR"])
        var expected = first.environment
        expected["EXTRA"] = "1"
        #expect(extra.environment == expected)
        #expect(try command(sandbox, launch) == first, "the launch's own environment still gets the first command")
    }

    @Test("A second spawn of a launch gets the first one's command; another launch gets its own")
    func reused() throws {
        let root = NSTemporaryDirectory() + "whprepared-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sandbox = confinement(root: root)
        let first = try command(sandbox, launch("com.example.a"))
        #expect(first.executable == "/plugins/com.example.a.appex/probe" && first.arguments == ["--flag"])
        #expect(first.sandbox?.read.first == "/plugins/com.example.a.appex")
        #expect(first.sandbox?.write.contains(root + "/com.example.a") == true)
        #expect(first.sandbox?.landlockABI == 7 && first.sandbox?.seccomp == true && first.sandbox?.required == false)
        #expect(first.environment["PATH"] == "/usr/bin:/bin", "a PATH entry outside the read grants is dropped")
        #expect(first.environment["TMPDIR"] == root + "/com.example.a")
        #expect(try command(sandbox, launch("com.example.a")) == first)
        #expect(try command(confinement(root: root), launch("com.example.a")) == first, "a fresh confinement agrees")
        let other = try command(sandbox, launch("com.example.b"))
        #expect(other.environment["TMPDIR"] == root + "/com.example.b")
        #expect(other.sandbox?.read.contains("/plugins/com.example.b.appex") == true)
        #expect(other.sandbox?.read.contains("/plugins/com.example.a.appex") == false)
        let otherPath = try command(sandbox, launch("com.example.a", path: "/bin"))
        #expect(otherPath.environment["PATH"] == "/bin")
    }

    @Test("A temporary directory removed between spawns is made again")
    func remade() throws {
        let root = NSTemporaryDirectory() + "whprepared-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sandbox = confinement(root: root)
        let first = try command(sandbox, launch("com.example.a"))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: root + "/com.example.a", isDirectory: &isDirectory) && isDirectory.boolValue)
        try FileManager.default.removeItem(atPath: root)
        #expect(try command(sandbox, launch("com.example.a")) == first)
        #expect(FileManager.default.fileExists(atPath: root + "/com.example.a"))
        let mode = try FileManager.default.attributesOfItem(atPath: root + "/com.example.a")[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}
