import Foundation
import Testing
import WidgetHostBundles
@testable import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// `ProcessSpawner` makes a command's C strings once and keeps them for its next spawn (issue
/// 16): the kept strings are the command's exactly, and a command that differs in anything
/// (an environment value, the sandbox's paths) gets its own.
@Suite("A command's C strings, made once per command")
struct SpawnStringsTests {
    private func strings(_ pointers: [UnsafeMutablePointer<CChar>?]) -> [String] {
        pointers.compactMap { $0.map { String(cString: $0) } }
    }

    private func command(_ environment: [String: String], read: [String]? = nil) -> SpawnCommand {
        SpawnCommand(
            executable: "/plugins/a.appex/probe", arguments: ["--flag"], environment: environment,
            sandbox: read.map {
                SpawnSandbox(
                    read: $0, write: ["/tmp/x"], network: false, landlockABI: 7, seccomp: true, openFiles: nil,
                    processes: nil, required: false)
            })
    }

    @Test("The strings are the command's: argv, the environment sorted, the sandbox's paths, each list ended by NULL")
    func madeFromTheCommand() {
        let made = SpawnStrings(command(["PATH": "/usr/bin", "LANG": "C.UTF-8", "EMPTY": ""], read: ["/usr", "/lib"]))
        #expect(strings(made.argv) == ["/plugins/a.appex/probe", "--flag"])
        #expect(made.argv.last! == nil)
        #expect(strings(made.envp) == ["EMPTY=", "LANG=C.UTF-8", "PATH=/usr/bin"])
        #expect(made.envp.last! == nil)
        #expect(made.reads.map { String(cString: $0!) } == ["/usr", "/lib"])
        #expect(made.writes.map { String(cString: $0!) } == ["/tmp/x"])
    }

    @Test("The same command gets the same strings; one that differs in a value or a path gets its own")
    func keptPerCommand() {
        let prepared = PreparedCommands()
        let first = prepared.strings(for: command(["PATH": "/usr/bin"], read: ["/usr"]))
        #expect(prepared.strings(for: command(["PATH": "/usr/bin"], read: ["/usr"])) === first)
        let otherValue = prepared.strings(for: command(["PATH": "/bin"], read: ["/usr"]))
        #expect(otherValue !== first)
        #expect(strings(otherValue.envp) == ["PATH=/bin"])
        let otherPath = prepared.strings(for: command(["PATH": "/usr/bin"], read: ["/usr", "/opt"]))
        #expect(otherPath !== first)
        #expect(otherPath.reads.count == 2)
        let unconfined = prepared.strings(for: command(["PATH": "/usr/bin"]))
        #expect(unconfined !== first && unconfined.reads.isEmpty)
        #expect(prepared.count == 4)
    }

    @Test("No more than the bound are kept")
    func bounded() {
        let prepared = PreparedCommands()
        for index in 0...PreparedCommands.limit { _ = prepared.strings(for: command(["N": "\(index)"])) }
        #expect(prepared.count <= PreparedCommands.limit)
    }

    @Test("A spawner's second spawn of a launch runs with the launch's environment, and a changed launch with its own")
    func spawnsWithKeptStrings() throws {
        let spawner = ProcessSpawner()
        let path = NSTemporaryDirectory() + "spawn-strings-\(getpid()).sh"
        try "#!/bin/sh\necho \"$VALUE\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        defer { unlink(path) }
        func run(_ value: String) throws -> String {
            let spawned = try spawner.spawn(
                ExtensionLaunch(
                    bundleID: "com.test.widget", executable: path, directory: "/",
                    environment: ["PATH": "/usr/bin:/bin", "VALUE": value]))
            close(spawned.stdinWrite)
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            while case let count = read(spawned.stdoutRead, &buffer, buffer.count), count > 0 { bytes += buffer[0..<count] }
            var status: CInt = 0
            waitpid(spawned.pid, &status, 0)
            close(spawned.stdoutRead)
            close(spawned.stderrRead)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(try run("one") == "one\n")
        #expect(try run("one") == "one\n")
        #expect(try run("two") == "two\n")
    }
}
