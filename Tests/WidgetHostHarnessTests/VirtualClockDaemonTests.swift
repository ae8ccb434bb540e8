import Foundation
import Testing
import WidgetHostProtocol

/// `widgethostd --virtual-clock START` driven with `widgethost clock`: the real daemon and CLI
/// from .build, a real extension process that reads its own clock.
@Suite("widgethostd --virtual-clock")
struct VirtualClockDaemonTests {
    static let bin = HarnessFixture.packageRoot.appendingPathComponent(".build/debug")

    @discardableResult
    private func cli(_ arguments: [String], socket: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.bin.appendingPathComponent("widgethost")
        process.arguments = arguments + ["--socket", socket]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(
        "clock advance and run-until move the daemon's time; the extension's Date() follows",
        .enabled(if: FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("widgethostd").path)))
    func advanceMovesDaemonAndExtension() throws {
        let fixture = try HarnessFixture()
        let plugins = fixture.root.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let bundle = try fixture.pythonBundle("Clock", id: "com.example.clock.widget", script: HarnessFixture.clockScript)
        try FileManager.default.moveItem(atPath: bundle, toPath: plugins.appendingPathComponent("Clock.appex").path)
        let socket = fixture.root.appendingPathComponent("s.sock").path

        let daemon = Process()
        daemon.executableURL = Self.bin.appendingPathComponent("widgethostd")
        daemon.arguments = [
            "--socket", socket, "--state", fixture.root.appendingPathComponent("state").path, "--plugins", plugins.path,
            "--app-groups", fixture.root.appendingPathComponent("groups").path, "--virtual-clock", "2031-07-04T06:00:00Z",
        ]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        var ready = false
        for _ in 0..<200 where !ready {
            ready = FileManager.default.fileExists(atPath: socket) && (try? cli(["clock"], socket: socket).status) == 0
            if !ready { usleep(25_000) }
        }
        #expect(ready)

        #expect(try cli(["add", "ClockWidget", "--family", "systemSmall"], socket: socket).status == 0)
        let advanced = try cli(["clock", "advance", "26h", "--json"], socket: socket)
        let result = try WireCoding.decode(ClockResult.self, from: Data(advanced.output.utf8))
        let target = try #require(RFC3339.parse("2031-07-05T08:00:00Z"))
        #expect(result.virtual)
        #expect(result.now >= target && result.now < target + 5)

        #expect(try cli(["reload", "--kind", "ClockWidget", "--foreground"], socket: socket).status == 0)
        var seen: Date?
        for _ in 0..<100 where seen.map({ $0 < target }) ?? true {
            usleep(30_000)
            let timeline = try cli(["timeline", "w1", "--json"], socket: socket).output
            if let range = timeline.range(of: #""seen" : ""#) {
                seen = RFC3339.parse(String(timeline[range.upperBound...].prefix(20)))
            }
        }
        let extensionNow = try #require(seen)
        #expect(abs(extensionNow.timeIntervalSince(target)) < 10, "the extension saw \(extensionNow)")

        let until = try cli(["clock", "run-until", "2031-07-06T00:10:00Z"], socket: socket)
        #expect(until.output.hasPrefix("2031-07-06T00:10:00"), "\(until.output)")
        let backwards = try cli(["clock", "run-until", "2031-07-01T00:00:00Z"], socket: socket)
        #expect(backwards.status != 0)
        #expect(backwards.output.contains("only moves forward"))
    }
}
