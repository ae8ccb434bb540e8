import Foundation
import Synchronization
import Testing
import WidgetHostClient
import WidgetHostProtocol

#if canImport(Glibc)
import Glibc
#endif

extension Tag {
    /// Tests that serve a real Unix socket from a thread.
    @Tag static var controlSocket: Self
}

@Suite("ControlClient against a scripted control server", .tags(.controlSocket))
struct ClientTests {
    @Test("A reply is matched by its id; notifications and other ids in between are skipped")
    func replyMatchedByID() throws {
        let server = try FakeControlServer { request in
            [
                .line(#"{"jsonrpc":"2.0","method":"event","params":{"type":"widgetAdded","at":"2026-02-15T08:00:00Z"}}"#),
                .line(#"{"jsonrpc":"2.0","id":999,"result":[]}"#),
                .line("not json at all"),
                .reply(request.id, [WidgetInfo.birthday]),
            ]
        }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        let widgets: [WidgetInfo] = try client.call(
            .getCurrentConfigurations, params: GetCurrentConfigurationsParams(app: "com.birthdayreminders"))
        #expect(widgets == [WidgetInfo.birthday])
        let received = try #require(server.requests.first)
        #expect(received.method == "getCurrentConfigurations")
        #expect(received.params == ["app": "com.birthdayreminders"])
    }

    @Test("Several calls on one connection use increasing ids and each gets its own reply")
    func severalCalls() throws {
        let server = try FakeControlServer { request in
            [.reply(request.id, StatusResult(now: .t0, widgets: []))]
        }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        for _ in 0..<3 {
            let result: StatusResult = try client.call(.status, params: StatusParams())
            #expect(result.now == .t0)
        }
        #expect(server.requests.map(\.id) == [.number(1), .number(2), .number(3)])
    }

    @Test("Params are sent as the daemon reads them; a call without params sends none")
    func paramsOnTheWire() throws {
        let server = try FakeControlServer { request in
            switch request.method {
            case "reloadTimelines": [.reply(request.id, ReloadResult(outcomes: []))]
            default: [.reply(request.id, ExtensionsResult(loaded: [], skipped: []))]
            }
        }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        let _: ReloadResult = try client.call(
            .reloadTimelines,
            params: ReloadTimelinesParams(kind: "BirthdayHomeWidget", app: "com.birthdayreminders", foreground: true))
        let _: ExtensionsResult = try client.call(.extensions)
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests[0].params == ["kind": "BirthdayHomeWidget", "app": "com.birthdayreminders", "foreground": true])
        #expect(requests[1].method == "extensions")
        #expect(requests[1].params == nil)
    }

    @Test("A JSON-RPC error comes back as .rpc, described by the daemon's message")
    func rpcErrorSurfaced() throws {
        let message = #"unknown widget kind "Foo"; known kinds are BirthdayHomeWidget, BirthdayLockScreenWidget"#
        let server = try FakeControlServer { request in
            [.error(request.id, code: -32000, message: message)]
        }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        do {
            let _: ReloadResult = try client.call(.reloadTimelines, params: ReloadTimelinesParams(kind: "Foo"))
            Issue.record("expected an error")
        } catch {
            #expect(error.rpcError == JSONRPCError(code: -32000, message: message))
            #expect(error.description == message)
            #expect(error.hint == nil)
        }
    }

    @Test("An error with a null id (the daemon could not read the line) is this call's error")
    func nullIDError() throws {
        let server = try FakeControlServer { _ in
            [.line(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not valid JSON"}}"#)]
        }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        do {
            let _: StatusResult = try client.call(.status)
            Issue.record("expected an error")
        } catch {
            #expect(error.rpcError?.code == -32700)
        }
    }

    @Test("No socket at the path: daemonUnreachable with the errno text")
    func unreachableMissing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/missing.sock"
        do {
            _ = try ControlClient(socketPath: path)
            Issue.record("expected daemonUnreachable")
        } catch {
            guard case .daemonUnreachable(let reportedPath, let reason, let code) = error else {
                Issue.record("expected daemonUnreachable, got \(error)")
                return
            }
            #expect(reportedPath == path)
            #expect(reason == "No such file or directory")
            #expect(code == ENOENT)
            #expect(error.description == "cannot reach widgethostd at \(path) (No such file or directory)")
            #expect(error.hint == "start it with `make run` or `systemctl start widgethostd.socket`")
        }
    }

    @Test("A socket file nobody listens on: daemonUnreachable, connection refused")
    func unreachableRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/stale.sock"
        let server = try FakeControlServer(path: path) { _ in [] }
        server.stop(unlink: false)  // The file stays, as after a crash.
        do {
            _ = try ControlClient(socketPath: path)
            Issue.record("expected daemonUnreachable")
        } catch {
            guard case .daemonUnreachable(_, let reason, let code) = error else {
                Issue.record("expected daemonUnreachable, got \(error)")
                return
            }
            #expect(code == ECONNREFUSED)
            #expect(reason == "Connection refused")
        }
    }

    @Test("A daemon that never answers: timedOut after the client's timeout, not a hang")
    func readTimeout() throws {
        let server = try FakeControlServer { _ in [.pause(.seconds(5))] }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path, timeout: .milliseconds(200))
        let started = ContinuousClock.now
        do {
            let _: StatusResult = try client.call(.status)
            Issue.record("expected timedOut")
        } catch {
            guard case .timedOut(let path, let method, let seconds) = error else {
                Issue.record("expected timedOut, got \(error)")
                return
            }
            #expect(path == server.path)
            #expect(method == "status")
            #expect(seconds == 0.2)
            #expect(error.description == "widgethostd at \(server.path) did not answer status within 0.2 s")
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(190))
        #expect(elapsed < .seconds(3))
    }

    @Test("The daemon closing the connection before replying: connectionClosed")
    func closedBeforeReply() throws {
        let server = try FakeControlServer { _ in [.close] }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        do {
            let _: StatusResult = try client.call(.status)
            Issue.record("expected connectionClosed")
        } catch {
            guard case .connectionClosed(_, let method) = error else {
                Issue.record("expected connectionClosed, got \(error)")
                return
            }
            #expect(method == "status")
        }
    }

    @Test("A result of the wrong shape is invalidReply naming the field")
    func wrongShape() throws {
        let server = try FakeControlServer { request in
            [.line(#"{"jsonrpc":"2.0","id":\#(request.id),"result":{"outcomes":[{"id":"w1"}]}}"#)]
        }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        do {
            let _: ReloadResult = try client.call(.reloadTimelines, params: ReloadTimelinesParams(kind: "K"))
            Issue.record("expected invalidReply")
        } catch {
            guard case .invalidReply(let method, let detail) = error else {
                Issue.record("expected invalidReply, got \(error)")
                return
            }
            #expect(method == "reloadTimelines")
            #expect(detail.contains("outcomes[0].kind"))
        }
    }

    @Test("subscribe hands each event notice to the closure until it returns false")
    func subscribeUntilStopped() throws {
        let server = try FakeControlServer { request in
            [
                .reply(request.id, SubscribeResult()),
                .notice(.started),
                .line(#"{"jsonrpc":"2.0","method":"somethingElse","params":{}}"#),
                .notice(.deferred),
                .notice(.finished),
                .pause(.seconds(5)),
            ]
        }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        var received: [HostNotice] = []
        let end = try client.subscribe(idleTimeout: .seconds(3)) { notice in
            received.append(notice)
            return received.count < 2
        }
        #expect(end == .stopped)
        #expect(received == [.started, .deferred])
        #expect(server.requests.map(\.method) == ["subscribe"])
    }

    @Test("subscribe ends with .closed when the daemon closes the stream")
    func subscribeUntilClosed() throws {
        let server = try FakeControlServer { request in
            [.reply(request.id, SubscribeResult()), .notice(.started), .notice(.finished), .close]
        }
        defer { server.stop() }
        let client = try ControlClient(socketPath: server.path)
        var received: [HostNotice] = []
        let end = try client.subscribe(idleTimeout: .seconds(3)) { notice in
            received.append(notice)
            return true
        }
        #expect(end == .closed)
        #expect(received == [.started, .finished])
    }

    @Test("The socket path is --socket, else WIDGETHOST_SOCKET, else /run/widgethost.sock")
    func socketPathResolution() {
        #expect(ControlSocketPath.resolve(explicit: "/a.sock", environment: ["WIDGETHOST_SOCKET": "/b.sock"]) == "/a.sock")
        #expect(ControlSocketPath.resolve(explicit: nil, environment: ["WIDGETHOST_SOCKET": "/b.sock"]) == "/b.sock")
        #expect(ControlSocketPath.resolve(explicit: nil, environment: ["WIDGETHOST_SOCKET": ""]) == "/run/widgethost.sock")
        #expect(ControlSocketPath.resolve(explicit: nil, environment: [:]) == "/run/widgethost.sock")
    }
}

// MARK: - Fixtures

extension Date {
    static let t0 = RFC3339.parse("2026-02-15T08:01:00Z")!
}

extension WidgetInfo {
    static let birthday = WidgetInfo(
        id: "w1", kind: "BirthdayHomeWidget", family: .systemSmall, app: "com.birthdayreminders",
        extension: "com.birthdayreminders.widget")
}

extension HostNotice {
    static let birthday = NoticeWidget(id: "w1", kind: "BirthdayHomeWidget", extension: "com.birthdayreminders.widget")

    static let started = HostNotice.reloadStarted(birthday, at: .t0, charge: .budgeted, requestedAt: .t0)

    static let deferred = HostNotice.reloadDeferred(
        birthday, at: .t0, budgeted: true, requestedAt: .t0, until: .t0 + 300, reason: .minInterval)

    static let finished = HostNotice.reloadFinished(
        birthday, at: .t0 + 1, budgeted: true, result: .success, durationMs: 12, footprintBytes: 4 * 1_048_576,
        detail: nil)
}

/// A directory under /tmp (short, for socket paths), removed when dropped.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/widgethost-e2e-XXXXXX".utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        path = String(cString: result)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A control server for tests: a real Unix socket, a thread per connection, and a script
/// that maps each request to what the "daemon" does — send lines, pause, close.
final class FakeControlServer: Sendable {
    struct Request: Sendable, Hashable {
        var id: JSONRPCID
        var method: String
        var params: JSONValue?
    }

    enum Action: Sendable {
        case line(String)
        /// Bytes as they are, no newline added: part of a line.
        case bytes(String)
        case pause(Duration)
        case close

        static func reply(_ id: JSONRPCID, _ result: some Encodable) -> Action {
            line(try! JSONRPCMessage.encodingResponse(id: id, result: result))
        }

        static func error(_ id: JSONRPCID, code: Int, message: String) -> Action {
            line(.errorResponse(id: id, error: JSONRPCError(code: code, message: message)))
        }

        static func notice(_ notice: HostNotice) -> Action {
            line(try! JSONRPCMessage.encodingNotification(method: "event", params: notice))
        }

        private static func line(_ message: JSONRPCMessage) -> Action {
            .line(String(decoding: try! message.encodedLine().dropLast(), as: UTF8.self))
        }
    }

    let path: String
    private let directory: TemporaryDirectory?
    private let listener: Int32
    private let received = Mutex<[Request]>([])
    private let stopped = Atomic<Bool>(false)
    private let script: @Sendable (Request) -> [Action]

    /// Every request the server has read, in order.
    var requests: [Request] { received.withLock { $0 } }

    init(path: String? = nil, script: @escaping @Sendable (Request) -> [Action]) throws {
        if let path {
            directory = nil
            self.path = path
        } else {
            let directory = try TemporaryDirectory()
            self.directory = directory
            self.path = directory.path + "/control.sock"
        }
        self.script = script
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(self.path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            let code = errno
            _ = Glibc.close(listener)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting; connections already open finish their scripts. The accepting thread
    /// closes the listener when it has left `accept`: closed here, its number could be reused
    /// by another test's socket before the thread's next `accept`, which would then take that
    /// socket's connections and answer them with this server's script.
    func stop(unlink removeFile: Bool = true) {
        if !stopped.exchange(true, ordering: .sequentiallyConsistent) {
            _ = shutdown(listener, Int32(SHUT_RDWR))
        }
        if removeFile { _ = unlink(path) }
    }

    private func acceptLoop() {
        defer { _ = Glibc.close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if stopped.load(ordering: .sequentiallyConsistent) {
                if connection >= 0 { _ = Glibc.close(connection) }
                return
            }
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            // Not inherited by the processes other tests start meanwhile: one of them holding
            // it would keep the connection open after this server closes it.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { _ = Glibc.close(connection) }
        var framer = LineFramer(maxLineBytes: 1 << 20)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(connection, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            for frame in framer.append(buffer[0..<count]) {
                guard case .line(let line) = frame,
                    case .message(.request(let id, let method, let params)) = JSONRPCMessage.parse(line)
                else { continue }
                let request = Request(id: id, method: method, params: params)
                received.withLock { $0.append(request) }
                for action in script(request) {
                    switch action {
                    case .line(let text):
                        let bytes = Array((text + "\n").utf8)
                        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    case .bytes(let text):
                        let bytes = Array(text.utf8)
                        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    case .pause(let duration):
                        let (seconds, attoseconds) = duration.components
                        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
                    case .close:
                        return
                    }
                }
            }
        }
    }
}
