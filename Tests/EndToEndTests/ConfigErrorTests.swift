import Foundation
import Testing

/// A config or scenario file the binaries cannot use stops them with one line naming the
/// file, the line and the fix (the configuration module's messages, through the real binaries).
@Suite("Config and scenario errors, from the binaries")
struct ConfigErrorTests {
    @Test(
        "widgethostd refuses a bad config file before it starts, with one line on stderr",
        arguments: [
            ("# rules\n[budget]\nmin = 90\nmax = 70\n", "widgethost.toml:3: budget.min = 90 is above budget.max = 70; set budget.min ≤ budget.max"),
            ("[budget]\nmin = 41\nmin = 42\n", "widgethost.toml:3: duplicate key budget.min (first defined at line 2); a key is defined once"),
            ("[log]\nlevel = info\n", "widgethost.toml:2: info is not a value; quote strings (\"info\"), and booleans are true or false"),
        ])
    func daemonRefusesConfig(text: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/widgethost.toml"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try Self.run("widgethostd", ["--config", file, "--state", directory.path + "/state"])
        #expect(run.status == 1)
        #expect(run.stderr == "widgethostd: \(directory.path)/\(expected)\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/state"))
    }

    @Test("widgethostd names a config file that is not there")
    func daemonMissingConfig() throws {
        let run = try Self.run("widgethostd", ["--config", "/nonexistent/widgethost.toml"])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "widgethostd: /nonexistent/widgethost.toml: no such file; check the path given to --config, or copy config/widgethost.toml there\n")
    }

    @Test("widgethost simulate refuses a bad scenario with its line and key")
    func simulateRefusesScenario() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/day.toml"
        try "[simulation]\nstart = \"2026-02-15T00:00:00Z\"\n[[widget]]\nkind = \"A\"\nprovider = { every = \"15 minutes\" }\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let run = try Self.run("widgethost", ["simulate", file])
        #expect(run.status != 0)
        #expect(
            run.stderr.contains(
                "\(file):5: widget[1].provider.every = \"15 minutes\" is not a duration; write a number and a unit (ms, s, m, h, d), as in \"30s\" or \"5m\""),
            "\(run.stderr)")
    }

    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private static func run(_ binary: String, _ arguments: [String]) throws -> CLIRun {
        let path = packageRoot.appendingPathComponent(".build/debug/\(binary)").path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(binary) is not built")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
