import Foundation
import Logging
import Testing
import WidgetHostBundles
import WidgetHostConfiguration
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol
@testable import WidgetHostDaemon
#if canImport(Glibc)
import Glibc
#endif

/// `control.max_connections`, `control.idle_timeout` and a client that does not read,
/// against the real daemon's socket, with short limits so that each runs in about a second.
@Suite("Control socket limits", .tags(.process), .serialized)
struct ControlLimitsTests {
    @Test(
        "Connections past control.max_connections wait in the listen backlog, each served as soon as one closes; none is refused",
        arguments: [3, 5])
    func maxConnections(limit: Int) throws {
        let daemon = try ControlLimitsDaemon { $0.maxConnections = limit }
        var clients = try (0..<limit).map { _ in try daemon.client() }
        for client in clients { _ = try client.result("status", as: StatusResult.self) }

        // Two more connect (the kernel completes the connection) and send their request at once.
        let waiting = try (0..<2).map { _ in try daemon.client() }
        for client in waiting { client.send(raw: #"{"jsonrpc":"2.0","id":1,"method":"status"}"#) }
        #expect(!hasInput(waiting[0].fd, within: 0.3) && !hasInput(waiting[1].fd, within: 0), "served past the limit")

        // One closes: the first waiting connection is accepted and answered; the other waits on.
        clients.removeFirst()
        #expect(hasInput(waiting[0].fd, within: 2), "not served after a connection closed")
        #expect(Self.isStatusReply(waiting[0].receive()))
        #expect(!hasInput(waiting[1].fd, within: 0.3), "two served for one closed")
        #expect(throws: Never.self) { try waiting[0].result("status", as: StatusResult.self) }

        clients.removeFirst()
        #expect(hasInput(waiting[1].fd, within: 2), "not served after a second connection closed")
        #expect(Self.isStatusReply(waiting[1].receive()))
        // The connections served all along were never disturbed.
        for client in clients { #expect(throws: Never.self) { try client.result("status", as: StatusResult.self) } }
    }

    /// A successful reply to request 1 (not an error, not the end of the connection).
    static func isStatusReply(_ message: JSONRPCMessage.Parsed?) -> Bool {
        guard case .message(.response(.number(1), let result))? = message else { return false }
        return (try? result.decode(as: StatusResult.self)) != nil
    }

    @Test("A connection with no line for control.idle_timeout is closed; a busy one and a subscriber stay")
    func idleTimeout() throws {
        let daemon = try ControlLimitsDaemon { $0.idleTimeout = 0.3 }
        let idle = try daemon.client()
        let busy = try daemon.client()
        let subscriber = try daemon.client()
        _ = try subscriber.call("subscribe")
        let opened = Date()

        // The busy client sends a line every 100 ms, for three idle timeouts.
        while Date().timeIntervalSince(opened) < 0.9 {
            #expect(throws: Never.self) { try busy.result("status", as: StatusResult.self) }
            usleep(100_000)
        }
        #expect(closedByPeer(idle.fd, within: 0), "the idle connection was closed")
        #expect(throws: Never.self) { try subscriber.result("status", as: StatusResult.self) }
        #expect(throws: Never.self) { try busy.result("status", as: StatusResult.self) }
    }

    @Test(
        "control.idle_timeout counts from the last read: not closed before it, closed after it; bytes without a newline count; a late subscriber stays"
    )
    func idleTimeoutCountsFromLastRead() throws {
        let timeout = 1.2
        let daemon = try ControlLimitsDaemon { $0.idleTimeout = timeout }
        let lines = try daemon.client()
        let partial = try daemon.client()
        let subscriber = try daemon.client()
        let opened = Date()

        // A line at 0.7 s restarts the wait: at 1.4 s (past 1.2 s from the start) it is open.
        usleep(700_000)
        let lastLine = Date()
        #expect(throws: Never.self) { try lines.result("status", as: StatusResult.self) }
        // Bytes that are not yet a line are reads too (as NIO's IdleStateHandler counted them).
        let half = Array(#"{"jsonrpc":"2.0","#.utf8)
        #expect(half.withUnsafeBytes { write(partial.fd, $0.baseAddress, $0.count) } == half.count)
        let partialRead = Date()
        // The subscriber subscribes after most of a timeout without a line.
        #expect(throws: Never.self) { _ = try subscriber.call("subscribe").get() }
        usleep(700_000)
        #expect(!closedByPeer(lines.fd, within: 0) || Date().timeIntervalSince(lastLine) >= timeout, "closed before its idle_timeout")
        #expect(!closedByPeer(partial.fd, within: 0) || Date().timeIntervalSince(partialRead) >= timeout, "closed before its idle_timeout")

        // Then nothing: both close about idle_timeout after their last read, never before.
        #expect(closedByPeer(lines.fd, within: 5), "the connection was not closed after idle_timeout")
        let linesClosed = Date().timeIntervalSince(lastLine)
        #expect(linesClosed >= timeout - 0.05, "closed \(linesClosed) s after its last line")
        #expect(closedByPeer(partial.fd, within: 5), "a connection with half a line was not closed after idle_timeout")
        #expect(Date().timeIntervalSince(partialRead) >= timeout - 0.05)

        // Past two timeouts since it opened and one since it subscribed, the subscriber is served.
        while Date().timeIntervalSince(opened) < 2 * timeout + 0.2 { usleep(50_000) }
        #expect(!closedByPeer(subscriber.fd, within: 0), "the subscriber was closed")
        #expect(throws: Never.self) { try subscriber.result("status", as: StatusResult.self) }
    }

    @Test("A client that sends without reading stops being read; the daemon answers others at once; nothing is lost")
    func slowReader() throws {
        let daemon = try ControlLimitsDaemon { _ in }
        let slow = try daemon.client()
        let other = try daemon.client()
        // 2,000 requests of 1 KiB (2 MiB) whose replies (~300 B each) are never read while
        // they are sent: far more than the socket buffers hold on either side.
        let count = 2000
        let padding = String(repeating: "p", count: 1000)
        let writer = BlockingWriter(fd: slow.fd, lines: (1...count).map {
            #"{"jsonrpc":"2.0","id":\#($0),"method":"noSuchMethod","params":{"pad":"\#(padding)"}}"#
        })

        var latencies: [TimeInterval] = []
        for _ in 0..<10 {
            let before = Date()
            _ = try other.result("status", as: StatusResult.self)
            latencies.append(Date().timeIntervalSince(before))
            usleep(50_000)
        }
        #expect(!writer.isDone, "the daemon stopped reading the client that does not read")
        // Typical answers within 100 ms; the worst one may share the loop with the burst the
        // daemon reads before the slow client's socket fills (115 ms seen on a loaded 2-core
        // machine). A stalled daemon would not answer at all.
        let sorted = latencies.sorted()
        #expect(sorted[sorted.count / 2] < 0.1, "median status latency \(sorted[sorted.count / 2]) s")
        #expect(sorted.last! < 0.5, "status took up to \(sorted.last!) s")

        var ids: [Int] = []
        while ids.count < count, let message = slow.receive() {
            if case .message(.errorResponse(.number(let id)?, let error)) = message, error.code == -32601 { ids.append(id) }
        }
        #expect(ids == Array(1...count), "every request answered once, in order")
        #expect(try waitUntil(timeout: 5) { writer.isDone })
    }
}

/// Whether `fd` has something to read (a line or the end) within `seconds`.
func hasInput(_ fd: CInt, within seconds: TimeInterval) -> Bool {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&poller, 1, Int32(seconds * 1000)) == 1
}

/// Whether the other end closed `fd` (EOF) within `seconds`, without consuming anything
/// but a pending error reply.
func closedByPeer(_ fd: CInt, within seconds: TimeInterval) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    repeat {
        var byte: UInt8 = 0
        let peeked = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        if peeked == 0 { return true }
        if peeked > 0 {
            // Data before the EOF (an error reply): drain it and look again.
            var buffer = [UInt8](repeating: 0, count: 65536)
            _ = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            continue
        }
        usleep(10_000)
    } while Date() < end
    return false
}

/// The real daemon with no extensions and the given control settings.
final class ControlLimitsDaemon {
    let directory: String
    let daemon: Daemon

    init(_ configure: (inout ControlSettings) -> Void) throws {
        directory = try DaemonFixture.makeTemporaryDirectory()
        var control = ControlSettings(socketPath: "\(directory)/control.sock")
        configure(&control)
        var options = DaemonOptions(
            host: HostConfiguration(), control: control, pluginPaths: [], appGroupsPath: "\(directory)/AppGroups",
            statePath: "\(directory)/state")
        try "boot-1\n".write(toFile: "\(directory)/boot_id", atomically: true, encoding: .utf8)
        options.bootIDPath = "\(directory)/boot_id"
        var logger = Logger(label: "widgethostd-limits-test")
        logger.logLevel = .critical
        daemon = try Daemon(options: options, store: InMemoryStateStore(), logger: logger, scanBundles: { BundleScan(bundles: []) })
        try daemon.start()
    }

    deinit {
        daemon.stop()
        try? daemon.wait()
        daemon.shutdownEventLoop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func client() throws -> TestClient { try TestClient(path: daemon.options.control.socketPath) }
}

/// Writes lines to a socket on a thread of its own, blocking as a real client would.
final class BlockingWriter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    var isDone: Bool { lock.withLock { done } }

    init(fd: CInt, lines: [String]) {
        let bytes = Array(lines.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")]
        Thread.detachNewThread { [self] in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
            lock.withLock { done = true }
        }
    }
}
