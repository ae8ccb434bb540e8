import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The real widgethostd binary, real extension processes, the real CLI.
/// The Python extension is the one in docs/protocol.md, extracted from the page itself:
/// if the docs stop being enough to write an extension, this test fails.
final class RealDaemon: @unchecked Sendable {
    let directory: String
    private(set) var process: Process
    private let arguments: [String]
    /// Added to the daemon's environment at the next `start()`.
    var extraEnvironment: [String: String] = [:]
    var socket: String { directory + "/s.sock" }
    var bootIDFile: String { directory + "/boot_id" }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtureScript = packageRoot.appendingPathComponent("Tests/Fixtures/Extensions/extension.py").path

    /// `config`: the text of a config file (optional). `fixtures`: bundle names served by
    /// Tests/Fixtures/Extensions/extension.py, besides the two docs extensions.
    init(config: String? = nil, fixtures: [String] = [], extraPluginPaths: [String] = []) throws {
        var template = Array("/tmp/whe-XXXXXX".utf8CString)
        directory = String(cString: try #require(mkdtemp(&template)))
        try Self.writeDocsExtension(into: directory + "/plugins/PyClock.appex", bundleID: "org.example.pyclock.widget")
        try Self.writeDocsExtension(into: directory + "/plugins/OtherClock.appex", bundleID: "org.other.clock.widget", kind: "OtherClock")
        for name in fixtures { try Self.writeFixture(name, into: directory + "/plugins") }
        try "boot-1\n".write(toFile: directory + "/boot_id", atomically: true, encoding: .utf8)
        var arguments = [
            "--socket", directory + "/s.sock", "--state", directory + "/state",
            "--plugins", ([directory + "/plugins"] + extraPluginPaths).joined(separator: ","),
            "--app-groups", directory + "/groups", "--boot-id-file", directory + "/boot_id",
        ]
        if let config {
            try config.write(toFile: directory + "/widgethost.toml", atomically: true, encoding: .utf8)
            arguments += ["--config", directory + "/widgethost.toml"]
        }
        self.arguments = arguments
        process = Process()
        try start()
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts widgethostd and waits until its socket answers.
    func start() throws {
        let daemon = Self.packageRoot.appendingPathComponent(".build/debug/widgethostd")
        try #require(FileManager.default.isExecutableFile(atPath: daemon.path), "widgethostd is not built")
        process = Process()
        process.executableURL = daemon
        process.arguments = arguments
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "TZ": "UTC"].merging(extraEnvironment) { $1 }
        // Kept across restarts, for the message of a failing test.
        let log = directory + "/widgethostd.log"
        if !FileManager.default.fileExists(atPath: log) { _ = FileManager.default.createFile(atPath: log, contents: nil) }
        let handle = FileHandle(forWritingAtPath: log)
        handle?.seekToEndOfFile()
        process.standardError = handle
        try process.run()
        let ready = Date().addingTimeInterval(20)
        while Date() < ready, (try? ControlClient(socketPath: socket)) == nil { usleep(10_000) }
    }

    /// kill -9, as a power cut of the process would.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The interactive fixture whose intents misbehave (Tests/Fixtures/Extensions/intents.py).
    static let intentsScript = packageRoot.appendingPathComponent("Tests/Fixtures/Extensions/intents.py").path

    /// A bundle whose executable is the fixture extension (behaviour from its name), or `script`.
    static func writeFixture(_ name: String, into plugins: String, script: String = fixtureScript) throws {
        let bundle = plugins + "/\(name).appex"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        // The extension's code lives in its bundle: the sandbox lets it read nothing outside.
        try FileManager.default.copyItem(atPath: script, toPath: "\(bundle)/extension.py")
        try "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/extension.py\" \"$@\"\n".write(
            toFile: bundle + "/\(name)", atomically: true, encoding: .utf8)
        chmod(bundle + "/\(name)", 0o755)
        _ = FileManager.default.createFile(atPath: bundle + "/.log-requests", contents: nil)
        // requests.log goes to this group's container (groups/GROUP/requests.log).
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>com.apple.security.application-groups</key>
            <array><string>group.com.fixture.\(name.lowercased())</string></array></dict></plist>
            """.write(toFile: bundle + "/\(name).entitlements", atomically: true, encoding: .utf8)
        try plist(bundleID: "com.fixture.\(name.lowercased()).widget", executable: name).write(
            toFile: bundle + "/Info.plist", atomically: true, encoding: .utf8)
    }

    static func plist(bundleID: String, executable: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>\(bundleID)</string>
        <key>CFBundleExecutable</key><string>\(executable)</string>
        <key>CFBundleDisplayName</key><string>\(executable)</string>
        <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>
        </dict></plist>
        """
    }

    func cli(_ arguments: String...) throws -> CLIRun {
        try CLI.run(arguments, environment: ["WIDGETHOST_SOCKET": socket])
    }

    /// The ```python block of docs/protocol.md, as a bundle.
    static func writeDocsExtension(into bundle: String, bundleID: String, kind: String? = nil) throws {
        let docs = try String(contentsOf: packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let start = try #require(docs.range(of: "```python\n#!/usr/bin/env python3"))
        let end = try #require(docs.range(of: "```", range: start.upperBound..<docs.endIndex))
        var script = String(docs[docs.index(start.lowerBound, offsetBy: 10)..<end.lowerBound])
        if let kind { script = script.replacingOccurrences(of: "KIND = \"PyClock\"", with: "KIND = \"\(kind)\"") }
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try script.write(toFile: bundle + "/clock.py", atomically: true, encoding: .utf8)
        chmod(bundle + "/clock.py", 0o755)
        try plist(bundleID: bundleID, executable: "clock.py").write(
            toFile: bundle + "/Info.plist", atomically: true, encoding: .utf8)
    }
}

@Suite("Real daemon, real CLI", .serialized)
struct RealDaemonTests {
    @Test("An extension written in Python from docs/protocol.md alone serves a timeline, through the CLI")
    func docsExtensionThroughTheCLI() throws {
        let daemon = try RealDaemon()
        let added = try daemon.cli("add", "PyClock", "--family", "systemSmall")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("w1"))
        #expect(added.stdout.contains("exempt"))

        let client = try ControlClient(socketPath: daemon.socket)
        var status: StatusResult?
        let deadline = Date().addingTimeInterval(10)
        repeat {
            status = try client.call(.status, params: StatusParams(id: "w1"))
        } while status?.widgets.first?.currentEntry.source != .timeline && Date() < deadline && usleep(20_000) == 0
        #expect(status?.widgets.first?.currentEntry.source == .timeline)
        #expect(status?.widgets.first?.currentEntry.entry?.content["time"] != nil)

        let first = try daemon.cli("reload", "--kind", "PyClock")
        #expect(first.status == 0)
        #expect(first.stdout.contains("started (budgeted, 1 of 70 used)"), "\(first.stdout)")
        let second = try daemon.cli("reload", "--kind", "PyClock")
        #expect(second.stdout.contains("deferred until"), "\(second.stdout)")
        #expect(second.stdout.contains("minInterval"))
        let foreground = try daemon.cli("reload", "--kind", "PyClock", "--foreground", "--json")
        let result = try WireCoding.decode(ReloadResult.self, from: Data(foreground.stdout.utf8))
        #expect(result.outcomes.first?.budgeted == false)
    }

    @Test("reloadAllTimelines reaches only the calling app's widgets; errors are clear")
    func scopeAndErrors() throws {
        let daemon = try RealDaemon()
        #expect(try daemon.cli("add", "PyClock", "--family", "systemSmall").status == 0)
        #expect(try daemon.cli("add", "OtherClock", "--family", "systemSmall").status == 0)
        let all = try daemon.cli("reload", "--all", "--app", "org.example.pyclock", "--json")
        let result = try WireCoding.decode(ReloadResult.self, from: Data(all.stdout.utf8))
        #expect(result.outcomes.map(\.id) == ["w1"])

        let unknownKind = try daemon.cli("reload", "--kind", "NoSuchWidget")
        #expect(unknownKind.status == 65)
        #expect(unknownKind.stderr.contains("unknown widget kind \"NoSuchWidget\""))
        let unknownID = try daemon.cli("status", "w42")
        #expect(unknownID.status == 65)
        #expect(unknownID.stderr.contains("no widget with id \"w42\""))
        let badFamily = try daemon.cli("add", "PyClock", "--family", "huge")
        #expect(badFamily.status == 64)
        #expect(badFamily.stderr.contains("systemSmall"))
        let unsupported = try daemon.cli("add", "PyClock", "--family", "systemLarge")
        #expect(unsupported.status == 65)
        #expect(unsupported.stderr.contains("PyClock does not support systemLarge"))
    }

    @Test("20 concurrent clients get correct answers")
    func concurrentClients() throws {
        let daemon = try RealDaemon()
        #expect(try daemon.cli("add", "PyClock", "--family", "systemSmall").status == 0)
        let socket = daemon.socket
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            do {
                let client = try ControlClient(socketPath: socket)
                for _ in 0..<25 {
                    let status: StatusResult = try client.call(.status, params: StatusParams(id: "w1"))
                    let configurations: [WidgetInfo] = try client.call(
                        .getCurrentConfigurations, params: GetCurrentConfigurationsParams(app: "org.example.pyclock"))
                    if status.widgets.map(\.widget.id) != ["w1"] || configurations.map(\.id) != ["w1"] {
                        failures.withLock { $0 += 1 }
                    }
                }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test("With the daemon absent the CLI says where it looked and exits 69")
    func daemonAbsent() throws {
        let run = try CLI.run(["status"], environment: ["WIDGETHOST_SOCKET": "/tmp/no-such-widgethost.sock"])
        #expect(run.status == 69)
        #expect(run.stderr.contains("/tmp/no-such-widgethost.sock"))
    }
}

import Synchronization
