import Foundation
import Testing
import WidgetHostDoctor
import WidgetHostProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The real `widgethost doctor` binary, as CI runs it.
@Suite("widgethost doctor as a process", .tags(.doctorProcess))
struct DoctorCLITests {
    @Test("A good bundle: the checklist on stdout, exit 0")
    func goodText() throws {
        let run = try DoctorCLI.run(["doctor", Paths.fixture("Good").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\nGoodWidget · systemSmall\n"))
        #expect(run.stdout.contains("  PASS  placeholder does not touch app group data\n"))
        #expect(run.stdout.contains("Ready to ship: 16 pass, 0 warn, 0 fail\n"))
        // The report links to the drawn widgets.
        #expect(run.stdout.hasSuffix("See every kind and family drawn: widgethost gallery \(Paths.fixture("Good").path) --html gallery.html\n"))
    }

    @Test("A failing bundle: FAIL with its fix, exit 1 for CI")
    func failingText() throws {
        let run = try DoctorCLI.run(["doctor", Paths.fixture("OutOfOrder").path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("  FAIL  timeline entries are in chronological order\n"))
        #expect(run.stdout.contains("        fix: Build the entries in chronological order"))
        #expect(run.stdout.contains("Not ready to ship: 15 pass, 0 warn, 1 fail; fix the FAIL lines\n"))
    }

    @Test("--json is the report, decodable, with the measured figures; --strict fails on a warning")
    func json() throws {
        let run = try DoctorCLI.run(
            ["doctor", Paths.fixture("ManyEntries").path, "--json", "--now", "2026-02-15T08:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try WireCoding.decode(DoctorReport.self, from: Data(run.stdout.utf8))
        #expect(report.passed)
        #expect(report.now == RFC3339.parse("2026-02-15T08:00:00Z"))
        #expect(report.summary.warn == 1)
        #expect(report.findings(.entryCount).first?.verdict == .warn)
        #expect(report.findings(.timelineTime).first?.seconds != nil)
        #expect(report.findings(.footprint).first?.footprintBytes != nil)
        #expect(run.stdout.contains("\"check\" : \"timeline.entryCount\""))

        let strict = try DoctorCLI.run(["doctor", Paths.fixture("ManyEntries").path, "--strict"])
        #expect(strict.status == 1)
    }

    @Test("Bad arguments are usage errors (64) that say what to write", arguments: [
        (["--now", "tomorrow"], "--now tomorrow is not an RFC 3339 date"),
        (["--app-group", "com.example"], "--app-group com.example does not start with \"group.\""),
    ])
    func usage(arguments: [String], message: String) throws {
        let run = try DoctorCLI.run(["doctor", Paths.fixture("Good").path] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}

/// Runs the built `widgethost` (beside the test bundle, else under .build/debug).
enum DoctorCLI {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let binary: URL? = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("widgethost")
        let underBuild = Paths.packageRoot.appendingPathComponent(".build/debug/widgethost")
        return [beside, underBuild].first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static func run(_ arguments: [String]) throws -> Run {
        let binary = try #require(binary, "widgethost is not built; run `swift build --build-tests` first")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout"), errPath = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outPath.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath.path, contents: nil)
        let out = try FileHandle(forWritingTo: outPath), err = try FileHandle(forWritingTo: errPath)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TZ": "UTC"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("widgethost \(arguments.joined(separator: " ")) did not exit within 60 s")
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errPath, encoding: .utf8)) ?? "")
    }
}
