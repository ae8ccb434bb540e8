import Foundation
import Testing
import WidgetHostBundles
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// What every extension process gets from the spawner, whoever runs it.
@Suite("Spawning an extension process", .tags(.process))
struct SpawnTests {
    /// Runs `script` with /bin/sh through `spawner` and returns its stdout.
    private func output(
        of script: String, environment: [String: String] = ["PATH": "/usr/bin:/bin"], spawner: ProcessSpawner = ProcessSpawner()
    ) throws -> (String, pid_t) {
        let path = NSTemporaryDirectory() + "spawn-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sh"
        try ("#!/bin/sh\n" + script + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        defer { unlink(path) }
        let spawned = try spawner.spawn(
            ExtensionLaunch(bundleID: "com.test.widget", executable: path, directory: "/", environment: environment))
        close(spawned.stdinWrite)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(spawned.stdoutRead, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        var status: CInt = 0
        waitpid(spawned.pid, &status, 0)
        close(spawned.stdoutRead)
        close(spawned.stderrRead)
        return (String(decoding: bytes, as: UTF8.self), spawned.pid)
    }

    @Test("The child holds stdin, stdout and stderr and nothing else, even a descriptor opened without O_CLOEXEC")
    func onlyThreeDescriptors() throws {
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        #expect(leaked > 2)
        let (text, _) = try output(of: "ls /proc/$$/fd")
        let descriptors = Set(text.split(separator: "\n").map(String.init))
        // 10 (dash) or 255 (bash) is the shell's own descriptor for the script it reads.
        #expect(descriptors.isSuperset(of: ["0", "1", "2"]))
        #expect(descriptors.subtracting(["0", "1", "2", "10", "255"]).isEmpty, "descriptors: \(descriptors.sorted())")
    }

    @Test("The child keeps the spawning thread's CPU mask: moved off the host's CPU after its execve, it is not pinned elsewhere")
    func cpuMaskKept() throws {
        func allowed(_ status: String) throws -> String {
            let text = try String(contentsOfFile: status, encoding: .utf8)
            return try #require(text.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }).description
        }
        for _ in 0..<5 {
            try withCat { spawned in
                let mask = try allowed("/proc/\(spawned.pid)/status")
                close(spawned.stdinWrite)
                #expect(mask == (try allowed("/proc/thread-self/status")))
            }
        }
    }

    /// `body` with `/bin/cat` spawned (it exits once `body` closes its stdin); then its other
    /// ends closed and the process reaped.
    private func withCat(_ body: (SpawnedProcess) throws -> Void) throws {
        let spawned = try ProcessSpawner().spawn(
            ExtensionLaunch(bundleID: "com.test.widget", executable: "/bin/cat", directory: "/", environment: [:]))
        defer {
            close(spawned.stdoutRead)
            close(spawned.stderrRead)
            var status: CInt = 0
            waitpid(spawned.pid, &status, 0)
        }
        try body(spawned)
    }

    @Test("The host's ends of the three pipes close on exec, so no other process the host starts inherits them")
    func hostEndsCloseOnExec() throws {
        try withCat { spawned in
            for descriptor in [spawned.stdinWrite, spawned.stdoutRead, spawned.stderrRead] {
                #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(descriptor)")
            }
            close(spawned.stdinWrite)  // cat sees the end of its input and exits.
        }
        #expect(CloseOnExecPipe.make().map { fds in
            defer { fds.forEach { close($0) } }
            return fds.allSatisfy { fcntl($0, F_GETFD) & FD_CLOEXEC != 0 }
        } == true)
    }

    @Test("The environment is exactly the launch's")
    func clearedEnvironment() throws {
        let (text, _) = try output(of: "env", environment: ["PATH": "/usr/bin:/bin", "WIDGETHOST_BUNDLE": "/b.appex"])
        let names = Set(text.split(separator: "\n").map { String($0.prefix { $0 != "=" }) })
        #expect(names.isSuperset(of: ["PATH", "WIDGETHOST_BUNDLE"]))
        #expect(!names.contains("HOME") && !names.contains("USER"), "\(names)")
    }

    @Test("The child leads a process group of its own, so a kill reaches its children")
    func ownProcessGroup() throws {
        let (text, pid) = try output(of: "ps -o pgid= -p $$")
        #expect(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) == pid)
        #expect(getpgrp() != pid)
    }

    /// Stands for issue 17's sandbox: rewrites the command before anything of the extension runs.
    struct EchoFirst: LaunchConfinement {
        func confine(_ command: inout SpawnCommand, for launch: ExtensionLaunch) throws(SpawnError) {
            command.arguments = ["-c", "echo confined \(launch.bundleID); exec \"$0\"", command.executable] + command.arguments
            command.executable = "/bin/sh"
        }
    }

    struct Refuse: LaunchConfinement {
        func confine(_ command: inout SpawnCommand, for launch: ExtensionLaunch) throws(SpawnError) {
            throw SpawnError(executable: launch.executable, errno: EPERM)
        }
    }

    @Test("The confinement runs before the extension's own code, or refuses the launch")
    func confinement() throws {
        let (text, _) = try output(of: "echo extension", spawner: ProcessSpawner(confinement: EchoFirst()))
        #expect(text == "confined com.test.widget\nextension\n")
        #expect(throws: SpawnError.self) { try output(of: "echo extension", spawner: ProcessSpawner(confinement: Refuse())) }
    }
}
