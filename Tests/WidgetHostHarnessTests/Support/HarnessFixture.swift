import Foundation
import WidgetHostHarness

/// 2026-02-15T00:00:00Z, the day the scenarios of DESIGN.md start.
let t0 = Date(timeIntervalSince1970: 1_771_113_600)

extension Date {
    /// `t0.at("11:50")` — a time of day on t0's day (UTC).
    func at(_ time: String, dayOffset: Int = 0) -> Date {
        let parts = time.split(separator: ":").compactMap { Double($0) }
        return self + Double(dayOffset) * 86_400 + parts[0] * 3600 + parts[1] * 60
    }
}

/// A temporary directory holding scenario files and extension bundles built for one test.
final class HarnessFixture {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("harness-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Writes `text` as a scenario file and returns its path.
    func scenario(_ text: String, name: String = "scenario.toml") throws -> String {
        let path = root.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func run(_ text: String, seed: UInt64? = nil, keepLog: Bool = true) throws -> SimulationResult {
        let scenario = try Scenario.load(contentsOf: try self.scenario(text))
        return try Simulation.run(scenario, options: Simulation.Options(seed: seed, keepEventLog: keepLog))
    }

    /// The package's root (for Tests/Fixtures and .build).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A bundle `NAME.appex` whose executable is a Python script.
    @discardableResult
    func pythonBundle(_ name: String, id: String, script: String) throws -> String {
        let directory = root.appendingPathComponent("\(name).appex")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let info: [String: Any] = [
            "CFBundleIdentifier": id, "CFBundleDisplayName": name, "CFBundleExecutable": "extension.py",
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"],
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: directory.appendingPathComponent("Info.plist"))
        let executable = directory.appendingPathComponent("extension.py").path
        // The system Python starts in a fraction of the time of a pyenv shim (a shell script),
        // and these bundles start a process per request.
        var text = script
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), text.hasPrefix("#!/usr/bin/env python3") {
            text = "#!/usr/bin/python3" + text.dropFirst("#!/usr/bin/env python3".count)
        }
        try text.write(toFile: executable, atomically: true, encoding: .utf8)
        chmod(executable, 0o755)
        return directory.path
    }

    /// The fixture extension of docs/protocol.md (Tests/Fixtures/Extensions/extension.py); its
    /// behaviour comes from the bundle name (`Sleeper`, `Allocator`, `WellBehaved`, …).
    @discardableResult
    func fixtureBundle(_ name: String) throws -> String {
        let script = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Tests/Fixtures/Extensions/extension.py"), encoding: .utf8)
        return try pythonBundle(name, id: "com.example.\(name.lowercased()).widget", script: script)
    }

    /// An extension that reports the time its own clock shows (Python's `datetime.now`), the
    /// way unmodified widget code calls `Date()`.
    static let clockScript = #"""
        #!/usr/bin/env python3
        import json, sys
        from datetime import datetime, timezone
        for line in sys.stdin:
            request = json.loads(line)
            method, rid = request.get("method"), request.get("id")
            seen = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            if method == "initialize":
                result = {"widgets": [{"kind": "ClockWidget", "displayName": "Clock", "description": "the time it sees",
                                       "supportedFamilies": ["systemSmall"]}]}
            elif method == "timeline/get":
                result = {"entries": [{"date": request["params"]["now"], "content": {"seen": seen}}],
                          "policy": {"type": "never"}}
            else:
                result = {"date": "2026-01-01T00:00:00Z", "content": {"seen": seen}}
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}) + "\n")
            sys.stdout.flush()
        """#

    /// Built by `make plugins` (scripts/assemble-plugins.sh), when it has been run.
    static var birthdayBundle: String? {
        let path = packageRoot.appendingPathComponent(".build/examples/BirthdayReminders.appex").path
        return FileManager.default.fileExists(atPath: path + "/BirthdayRemindersWidget") ? path : nil
    }
}
