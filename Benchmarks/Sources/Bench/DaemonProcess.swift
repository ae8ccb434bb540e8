import Foundation
import WidgetHostClient
import WidgetHostProtocol

/// Where the benchmark binaries are: beside this executable (the release bin directory).
enum Binaries {
    static let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().path
    static var daemon: String { directory + "/widgethostd" }
    /// The CLI's front (`widgethost`), and the full CLI it runs for all but the simple reloads.
    static var cli: String { directory + "/widgethost" }
    static var fullCLI: String { directory + "/widgethost-cli" }
    static var benchExtension: String { directory + "/widgethost-bench-extension" }
    static var echo: String { directory + "/widgethost-bench-echo" }

    static func check() throws {
        for path in [daemon, cli, fullCLI, benchExtension, echo] where !FileManager.default.isExecutableFile(atPath: path) {
            throw BenchError("\(path) is not built; run `swift build -c release` (make bench does)")
        }
    }
}

/// A real widgethostd with its socket, state and plugins in a temporary directory, and the
/// bench extension as its only bundle.
final class DaemonProcess {
    static let bundleID = "org.widgethost.bench.widget"
    let directory: String
    private(set) var process = Process()
    var socket: String { directory + "/s.sock" }
    var pid: pid_t { process.processIdentifier }

    /// The daemon runs under valgrind's callgrind (`Instructions`); its summary goes to `callgrind.log`.
    let underCallgrind: Bool

    /// `settings`: TOML appended to the config (budget, policy, extension idle timeout).
    init(settings: String, underCallgrind: Bool = false) throws {
        self.underCallgrind = underCallgrind
        var template = Array("/tmp/whbench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
        directory = String(cString: made)
        try Self.writeBundle(into: directory + "/plugins/Bench.appex")
        let config = """
            [socket]
            path = "\(directory)/s.sock"
            [state]
            path = "\(directory)/state"
            [plugins]
            paths = ["\(directory)/plugins"]
            [app_groups]
            path = "\(directory)/groups"
            [log]
            level = "warning"
            \(settings)
            """
        try config.write(toFile: directory + "/widgethost.toml", atomically: true, encoding: .utf8)
        try start()
    }

    private func start() throws {
        if underCallgrind {
            process.executableURL = URL(fileURLWithPath: Instructions.valgrind)
            process.arguments =
                Instructions.arguments + ["--log-file=" + directory + "/callgrind.log", try Instructions.stripped(Binaries.daemon)]
                + ["--config", directory + "/widgethost.toml"]
        } else {
            process.executableURL = URL(fileURLWithPath: Binaries.daemon)
            process.arguments = ["--config", directory + "/widgethost.toml"]
        }
        // No NOTIFY_SOCKET or WATCHDOG_USEC: the watchdog is off.
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        _ = FileManager.default.createFile(atPath: directory + "/daemon.log", contents: nil)
        process.standardError = FileHandle(forWritingAtPath: directory + "/daemon.log")
        try process.run()
        let deadline = monotonicSeconds() + (underCallgrind ? 300 : 30)
        while monotonicSeconds() < deadline {
            if let channel = try? LineChannel(connectingTo: socket) {
                channel.close()
                return
            }
            usleep(5_000)
        }
        throw BenchError("widgethostd did not open \(socket) in time; see \(directory)/daemon.log")
    }

    /// SIGTERM, then a new widgethostd on the same state (what a restart or a reboot does).
    func restart() throws {
        process.terminate()
        process.waitUntilExit()
        process = Process()
        try start()
    }

    /// SIGTERM, and the instructions callgrind counted over the daemon's whole life.
    func stopCountingInstructions() throws -> Double {
        process.terminate()
        process.waitUntilExit()
        let log = (try? String(contentsOfFile: directory + "/callgrind.log", encoding: .utf8)) ?? ""
        guard let count = Instructions.collected(in: log) else {
            throw BenchError("callgrind gave no count; see \(directory)/callgrind.log")
        }
        return count
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    func client() throws -> ControlClient { try ControlClient(socketPath: socket, timeout: .seconds(120)) }

    /// Adds `count` widgets of `kind`, pipelining the requests in batches, and returns their ids.
    func addWidgets(_ count: Int, kind: String) throws -> [String] {
        let channel = try LineChannel(connectingTo: socket)
        defer { channel.close() }
        var ids: [String] = []
        var remaining = count
        var requestID = 1
        while remaining > 0 {
            let batch = min(remaining, 200)
            var lines: [UInt8] = []
            for _ in 0..<batch {
                lines += Array(
                    #"{"jsonrpc":"2.0","id":\#(requestID),"method":"addWidget","params":{"kind":"\#(kind)","family":"systemSmall"}}"#
                        .utf8) + [UInt8(ascii: "\n")]
                requestID += 1
            }
            try channel.write(lines)
            for _ in 0..<batch {
                let line = try channel.readLine()
                guard case .message(.response(_, let result)) = JSONRPCMessage.parse(line) else {
                    throw BenchError("addWidget failed: \(String(decoding: line, as: UTF8.self))")
                }
                ids.append(try result.decode(as: AddWidgetResult.self).widget.id)
            }
            remaining -= batch
        }
        return ids
    }

    /// Waits until widget `id` shows a timeline entry (the extension answers in order, so
    /// the last widget added is the last one served).
    func waitUntilCurrent(_ id: String, timeout: Double = 600) throws {
        let client = try client()
        defer { client.close() }
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            let status: StatusResult = try client.call(.status, params: StatusParams(id: id))
            if status.widgets.first?.currentEntry.source == .timeline { return }
            usleep(20_000)
        }
        throw BenchError("widget \(id) has no timeline after \(Int(timeout)) s")
    }

    /// Waits until the daemon has no child process (the extension stopped after its idle timeout).
    func waitForNoExtension(timeout: Double = 60) throws {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if Proc.children(of: pid).isEmpty { return }
            usleep(50_000)
        }
        throw BenchError("the extension process did not stop within \(Int(timeout)) s")
    }

    static func writeBundle(into bundle: String) throws {
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let executable = "widgethost-bench-extension"
        try FileManager.default.copyItem(atPath: Binaries.benchExtension, toPath: bundle + "/" + executable)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>\(bundleID)</string>
            <key>CFBundleExecutable</key><string>\(executable)</string>
            <key>CFBundleDisplayName</key><string>Bench</string>
            <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>
            </dict></plist>
            """
        try plist.write(toFile: bundle + "/Info.plist", atomically: true, encoding: .utf8)
    }
}

/// A `subscribe` connection read without a JSON parser in the timed path: lines are
/// timestamped when they arrive, then decoded.
final class Subscription {
    let channel: LineChannel

    init(socket: String) throws {
        channel = try LineChannel(connectingTo: socket)
        try channel.write(#"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{}}"# + "\n")
        _ = try channel.readLine()
    }

    /// Reads notices until one of `type` arrives (and `accept` agrees); returns it with the
    /// monotonic time its line arrived.
    func next(_ type: HostNotice.NoticeType, timeout: Double = 30, accept: (HostNotice) -> Bool = { _ in true }) throws
        -> (notice: HostNotice, at: Double)
    {
        let deadline = monotonicSeconds() + timeout
        let marker = Array("\"\(type.rawValue)\"".utf8)
        while monotonicSeconds() < deadline {
            guard channel.hasInput(within: max(0.001, deadline - monotonicSeconds())) else { break }
            let line = try channel.readLine()
            let arrived = monotonicSeconds()
            // A byte scan, not `firstRange(of:)`: that generic search cost ~44 µs for a 267-byte
            // line (swiftc -O), run on every notice while the daemon and the extension need
            // the same 2 cores, and on the path for the line read before the one timed.
            guard Self.contains(line, marker),
                case .message(.notification(_, let params)) = JSONRPCMessage.parse(line),
                let notice = try? (params ?? .null).decode(as: HostNotice.self),
                notice.type == type, accept(notice)
            else { continue }
            return (notice, arrived)
        }
        throw BenchError("no \(type.rawValue) notice within \(timeout) s")
    }

    func close() { channel.close() }

    static func contains(_ line: [UInt8], _ marker: [UInt8]) -> Bool {
        guard let first = marker.first, line.count >= marker.count else { return marker.isEmpty }
        return line.withUnsafeBufferPointer { haystack in
            marker.withUnsafeBufferPointer { needle in
                var at = 0
                while at <= haystack.count - needle.count {
                    if haystack[at] == first, memcmp(haystack.baseAddress! + at, needle.baseAddress!, needle.count) == 0 {
                        return true
                    }
                    at += 1
                }
                return false
            }
        }
    }
}

extension HostNotice {
    /// The bench extension's serial number in the entry, if any.
    var serial: Int? { number("serial") }

    /// Which process served the entry and its serial there: new for every timeline.
    var identity: String? { serial.map { "\(number("pid") ?? 0)/\($0)" } }

    private func number(_ key: String) -> Int? {
        guard case .entryChanged(_, _, let entry?, _) = self, case .object(let content) = entry.content else { return nil }
        switch content[key] {
        case .integer(let value)?: return value
        case .number(let value)?: return Int(value)
        default: return nil
        }
    }
}
