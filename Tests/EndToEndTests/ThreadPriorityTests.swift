import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// libdispatch renices each worker thread it starts to imitate a QoS class
/// (`setpriority(PRIO_PROCESS, 0, nice)`: 10, 2, 0, -2, -4 from background to
/// userInteractive) and logs "Failed to set thread priority for worker thread … errno=1" when
/// that fails, as every such call does under widgethostd.service's
/// `SystemCallFilter=~@resources`. widgethostd starts no Dispatch thread at all, so it makes
/// no such call at start or stop. strace's fault injection stands in for the filter: it
/// fails each `setpriority` with EPERM, as seccomp would, and records that it was called.
@Suite(
    "No thread-priority noise at start and stop",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is missing (make deps installs it)"))
struct ThreadPriorityTests {
    @Test("widgethostd started and stopped with SIGTERM calls setpriority nowhere and logs nothing from libdispatch")
    func startAndStop() throws {
        var template = Array("/tmp/whp-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try RealDaemon.writeDocsExtension(into: directory + "/plugins/PyClock.appex", bundleID: "org.example.pyclock.widget")

        let daemon = RealDaemon.packageRoot.appendingPathComponent(".build/debug/widgethostd").path
        try #require(FileManager.default.isExecutableFile(atPath: daemon), "widgethostd is not built")
        let trace = directory + "/setpriority.trace"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = [
            "-f", "-qq", "-e", "trace=setpriority", "-e", "inject=setpriority:error=EPERM", "-o", trace, daemon,
            "--socket", directory + "/s.sock", "--state", directory + "/state", "--plugins", directory + "/plugins",
            "--app-groups", directory + "/groups",
        ]
        // libdispatch logs to syslog unless told otherwise; stderr is where the test reads it.
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "TZ": "UTC", "LIBDISPATCH_LOG": "stderr"]
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let ready = Date().addingTimeInterval(30)
        while Date() < ready, (try? ControlClient(socketPath: directory + "/s.sock")) == nil { usleep(10_000) }
        var client = try ControlClient(socketPath: directory + "/s.sock")
        let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "PyClock", family: .systemSmall))
        client = try ControlClient(socketPath: directory + "/s.sock")

        // The daemon is strace's child.
        let children = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children", encoding: .utf8)) ?? ""
        let daemonPID = try #require(children.split(separator: " ").first.flatMap { pid_t($0) }, "no daemon under strace")
        kill(daemonPID, SIGTERM)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(log)")
        let calls = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { $0.contains("setpriority(") }
        #expect(calls.isEmpty, "\(calls.joined(separator: "\n"))")
        #expect(!log.contains("thread priority"), "\(log)")
    }
}
