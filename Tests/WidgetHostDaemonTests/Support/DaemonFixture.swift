import Foundation
import Logging
import WidgetHostBundles
import WidgetHostConfiguration
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol
@testable import WidgetHostDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The fixture extension (Tests/Fixtures/Extensions/extension.py), whose behaviour follows its bundle name.
let fixtureScript = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/Extensions/extension.py").path

/// A real daemon in this process: real extension processes, a real Unix socket, a temporary directory.
final class DaemonFixture: @unchecked Sendable {
    let directory: String
    let daemon: Daemon
    var socketPath: String { daemon.options.control.socketPath }

    /// `extensions`: bundle names such as "WellBehaved", "Sleeper" (see extension.py).
    init(
        extensions: [String] = ["WellBehaved"], configure: (inout HostConfiguration) -> Void = { _ in },
        environment: [String: String] = [:], control configureControl: (inout ControlSettings) -> Void = { _ in },
        clock: any HostClock = WallClock()
    ) throws {
        directory = try Self.makeTemporaryDirectory()
        var found: [ExtensionBundle] = []
        for name in extensions {
            let bundle = "\(directory)/plugins/\(name).appex"
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            // The extension's code lives in its bundle: the sandbox lets it read nothing outside.
            try FileManager.default.copyItem(atPath: fixtureScript, toPath: "\(bundle)/extension.py")
            // A small shell wrapper so that extra environment reaches the script.
            let exports = environment.map { "export \($0.key)='\($0.value)'" }.sorted().joined(separator: "\n")
            let wrapper = "#!/bin/sh\n\(exports)\nexec python3 \"$(dirname \"$0\")/extension.py\" \"$@\"\n"
            try wrapper.write(toFile: "\(bundle)/\(name)", atomically: true, encoding: .utf8)
            chmod("\(bundle)/\(name)", 0o755)
            found.append(
                ExtensionBundle(
                    directory: URL(fileURLWithPath: bundle), bundleID: "com.fixture.\(name.lowercased()).widget",
                    displayName: name, executable: URL(fileURLWithPath: "\(bundle)/\(name)"),
                    appGroups: ["group.com.fixture.\(name.lowercased())"]))
        }
        var host = HostConfiguration()
        configure(&host)
        var control = ControlSettings(socketPath: "\(directory)/control.sock")
        configureControl(&control)
        var options = DaemonOptions(
            host: host, control: control,
            pluginPaths: ["\(directory)/plugins"], appGroupsPath: "\(directory)/AppGroups",
            statePath: "\(directory)/state")
        try "boot-1\n".write(toFile: "\(directory)/boot_id", atomically: true, encoding: .utf8)
        options.bootIDPath = "\(directory)/boot_id"
        var logger = Logger(label: "widgethostd-test")
        logger.logLevel = .critical
        let bundles = found
        daemon = try Daemon(
            options: options, store: InMemoryStateStore(), clock: clock, logger: logger, scanBundles: { BundleScan(bundles: bundles) })
        try daemon.start()
    }

    deinit {
        daemon.stop()
        try? daemon.wait()
        daemon.shutdownEventLoop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func client() throws -> TestClient { try TestClient(path: socketPath) }

    /// A daemon where every reload is a cold start: an extension's process stops as soon as it
    /// has answered (idle timeout 0), with no minimum interval between reloads and no budget.
    /// `configure` adds to that.
    static func coldEveryReload(
        extensions: [String] = ["WellBehaved"], configure: (inout HostConfiguration) -> Void = { _ in }
    ) throws -> DaemonFixture {
        try DaemonFixture(
            extensions: extensions,
            configure: {
                $0.extensionLifecycle.idleTimeout = 0
                $0.policy.minReloadInterval = 0
                $0.budget.enforce = false
                configure(&$0)
            })
    }

    /// Short, because a Unix socket path must fit in 108 bytes.
    static func makeTemporaryDirectory() throws -> String {
        var template = Array("/tmp/whd-XXXXXX".utf8CString)
        guard let pointer = mkdtemp(&template) else { throw POSIXError(.EIO) }
        return String(cString: pointer)
    }
}

/// A minimal blocking JSON-RPC client, enough to drive the daemon from tests.
final class TestClient {
    let fd: CInt
    private var framer = LineFramer(maxLineBytes: 64 * 1024 * 1024)
    private var pending: [[UInt8]] = []
    private var nextID = 1

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(raw line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Next line from the daemon, parsed; nil on EOF or timeout. A batch's array is `.invalid`
    /// here; `receiveLine()` reads those.
    func receive() -> JSONRPCMessage.Parsed? {
        receiveBytes().map { JSONRPCMessage.parse($0) }
    }

    /// Next line from the daemon as a single message or a batch's array; nil on EOF or timeout.
    func receiveLine() -> JSONRPCLine? {
        receiveBytes().map { JSONRPCLine.parse($0, maxBatch: .max) }
    }

    /// Next line from the daemon as its bytes (without the newline); nil on EOF or timeout.
    func receiveRaw() -> [UInt8]? { receiveBytes() }

    private func receiveBytes() -> [UInt8]? {
        while pending.isEmpty {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return nil }
            for frame in framer.append(buffer[0..<count]) {
                if case .line(let line) = frame { pending.append(line) }
            }
        }
        return pending.removeFirst()
    }

    /// Sends a request and returns its result or error, skipping notifications.
    func call(_ method: String, _ params: JSONValue? = nil) throws -> Result<JSONValue, JSONRPCError> {
        let id = nextID
        nextID += 1
        let line = try JSONRPCMessage.request(id: .number(id), method: method, params: params).encodedLine()
        send(raw: String(decoding: line.dropLast(), as: UTF8.self))
        while let message = receive() {
            switch message {
            case .message(.response(.number(id), let result)): return .success(result)
            case .message(.errorResponse(.number(id)?, let error)): return .failure(error)
            default: continue
            }
        }
        throw POSIXError(.ETIMEDOUT)
    }

    func result<T: Decodable>(_ method: String, _ params: JSONValue? = nil, as type: T.Type = T.self) throws -> T {
        try call(method, params).get().decode(as: T.self)
    }

    /// Waits for the next `event` notification matching `predicate`.
    func nextNotice(timeout: TimeInterval = 15, where predicate: (HostNotice) -> Bool) -> HostNotice? {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end, let message = receive() {
            if case .message(.notification("event", let params?)) = message,
                let notice = try? params.decode(as: HostNotice.self), predicate(notice)
            {
                return notice
            }
        }
        return nil
    }
}

extension JSONRPCError: CustomStringConvertible {
    public var description: String { "\(code): \(message)" }
}
