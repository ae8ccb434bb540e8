import Foundation
import SeededRandom
import Testing
import WidgetHostCore
import WidgetHostProtocol
@testable import WidgetHostDaemon
#if canImport(Glibc)
import Glibc
#endif

/// 10,000 seeded random and mutated lines against the real daemon's control socket, over
/// many connections (4 at a time, 250 lines each). Every reply is attributed to its line:
/// exactly the expected reply, or, where none may come, nothing before a sentinel request.
/// (A trailing comma, `{"id":1,}`, which Foundation's reader accepts, is refused by the
/// protocol module before decoding; `JSONRPCMessageTests.trailingComma` covers it.)
@Suite("Control socket fuzz", .tags(.process))
struct ControlFuzzTests {
    static let lines = 10_000
    static let workers = 4
    static let linesPerConnection = 250
    /// `WIDGETHOST_FUZZ_SEED=N` replays a run; a failure prints its seed.
    static let seed = ProcessInfo.processInfo.environment["WIDGETHOST_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026

    @Test("10,000 random and mutated lines each get the right JSON-RPC error; the daemon keeps serving")
    func fuzz() throws {
        let fixture = try DaemonFixture(extensions: ["WellBehaved"])
        let socketPath = fixture.socketPath
        let failures = FuzzFailures()
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: Self.workers) { worker in
            var random = SeededGenerator(seed: Self.seed &+ UInt64(worker))
            var generator = FuzzLineGenerator()
            var client: TestClient?
            for index in 0..<(Self.lines / Self.workers) {
                if index % Self.linesPerConnection == 0 { client = nil }
                guard let connection = client ?? (try? FuzzConnection.open(socketPath)) else {
                    failures.add("worker \(worker) line \(index): cannot connect")
                    return
                }
                client = connection
                let line = generator.next(using: &random)
                if let problem = FuzzConnection.exchange(line, on: connection, sentinel: "s-\(worker)-\(index)") {
                    failures.add("worker \(worker) line \(index) (\(line.category)): \(problem); line: \(line.preview)")
                }
                if line.closesConnection { client = nil }
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(failures.all.isEmpty, "seed \(Self.seed): \(failures.all.count) failures, first: \(failures.all.prefix(5))")
        #expect(elapsed < 20, "the fuzz run took \(elapsed) s")

        // Still serving, promptly and correctly.
        let client = try fixture.client()
        let before = Date()
        let status: StatusResult = try client.result("status")
        #expect(Date().timeIntervalSince(before) < 0.1)
        #expect(status.widgets.isEmpty, "no fuzz line added a widget")
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        #expect(added.widget.kind == "WellBehavedWidget")
    }
}

/// What the daemon must answer to one fuzz line.
enum FuzzExpectation: Sendable {
    /// A success reply with this id.
    case result(JSONRPCID)
    /// An error with this code and id (nil: `"id": null`).
    case error(Int, JSONRPCID?, containing: String? = nil)
    /// A notification: no reply at all.
    case none
    /// A batch: one array holding these replies, in order.
    case batch([FuzzExpectation])
    /// A mutated line: no reply, a result, or an error with a standard or host code — never
    /// an internal error, never more than one reply, `id: null` for a parse error.
    case anyWellFormed
}

struct FuzzLine: Sendable {
    var category: String
    var bytes: [UInt8]
    var expectation: FuzzExpectation
    /// Sent in this many pieces, 1 ms apart.
    var pieces = 1
    /// Half a line, then the connection closes: the daemon must simply drop it.
    var closesConnection = false

    var preview: String {
        let text = String(decoding: bytes.prefix(160), as: UTF8.self)
        return bytes.count > 160 ? "\(text)… (\(bytes.count) bytes)" : text
    }
}

/// Runs one line and its sentinel on a connection; returns what went wrong, if anything.
enum FuzzConnection {
    static func open(_ path: String) throws -> TestClient {
        let client = try TestClient(path: path)
        // A missing reply fails in 3 s, not in TestClient's 20.
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return client
    }

    static func exchange(_ line: FuzzLine, on client: TestClient, sentinel: String) -> String? {
        if line.closesConnection {
            guard writeAll(line.bytes, to: client.fd) else { return "write failed" }
            return nil
        }
        let pieceSize = max(1, (line.bytes.count + line.pieces - 1) / line.pieces)
        var offset = 0
        while offset < line.bytes.count {
            let end = min(offset + pieceSize, line.bytes.count)
            guard writeAll(Array(line.bytes[offset..<end]), to: client.fd) else { return "write failed" }
            offset = end
            if offset < line.bytes.count { usleep(1000) }
        }
        // Where the reply is known, exactly one is read (an extra one would be read as the
        // next line's, and fail it); where it may be none, a sentinel request marks the end.
        let exact: Bool
        switch line.expectation {
        case .result, .error, .batch: exact = true
        case .none, .anyWellFormed: exact = false
        }
        var terminator: [UInt8] = [UInt8(ascii: "\n")]
        if !exact {
            terminator += Array(#"{"jsonrpc":"2.0","id":"\#(sentinel)","method":"fuzz.sentinel"}"#.utf8) + [UInt8(ascii: "\n")]
        }
        guard writeAll(terminator, to: client.fd) else { return "write failed" }
        var replies: [JSONRPCMessage] = []
        var batches: [[JSONRPCMessage]] = []
        while !exact || replies.isEmpty && batches.isEmpty {
            guard let reply = client.receiveLine() else {
                return "no reply (connection closed or 3 s timeout) after \(replies.count) replies"
            }
            if case .batch(let members) = reply {
                var messages: [JSONRPCMessage] = []
                for member in members {
                    guard case .message(let message) = member else { return "the daemon sent an invalid batch member: \(member)" }
                    messages.append(message)
                }
                batches.append(messages)
                continue
            }
            guard case .single(let parsed) = reply, case .message(let message) = parsed else {
                return "the daemon sent an invalid line: \(reply)"
            }
            if case .notification = message { continue }  // only a subscriber gets these
            if case .errorResponse(.string(sentinel)?, let error) = message {
                guard error.code == JSONRPCError.methodNotFoundCode else { return "sentinel answered \(error)" }
                break
            }
            replies.append(message)
        }
        if case .batch(let expected) = line.expectation {
            guard replies.isEmpty, batches.count == 1, batches[0].count == expected.count else {
                return "expected one array of \(expected.count) replies, got \(replies) and arrays \(batches)"
            }
            for (reply, expectation) in zip(batches[0], expected) {
                if let problem = check([reply], against: expectation) { return "in the batch: \(problem)" }
            }
            return nil
        }
        if !batches.isEmpty {
            // A mutated line may have become a batch: one array at most, each member well formed.
            guard case .anyWellFormed = line.expectation, batches.count == 1, replies.isEmpty else {
                return "unexpected arrays \(batches) beside \(replies)"
            }
            for reply in batches[0] {
                if let problem = check([reply], against: .anyWellFormed) { return "in the batch: \(problem)" }
            }
            return nil
        }
        return check(replies, against: line.expectation)
    }

    static func check(_ replies: [JSONRPCMessage], against expectation: FuzzExpectation) -> String? {
        switch expectation {
        case .batch:
            return "a batch was expected, got \(replies)"
        case .none:
            return replies.isEmpty ? nil : "a notification was answered: \(replies)"
        case .result(let id):
            guard replies.count == 1, case .response(id, _) = replies[0] else { return "expected a result for \(id), got \(replies)" }
            return nil
        case .error(let code, let id, let fragment):
            guard replies.count == 1, case .errorResponse(let gotID, let error) = replies[0] else {
                return "expected error \(code), got \(replies)"
            }
            if error.code != code || gotID != id { return "expected error \(code) id \(id.map { "\($0)" } ?? "null"), got \(error) id \(gotID.map { "\($0)" } ?? "null")" }
            if let fragment, !error.message.contains(fragment) { return "error message lacks \"\(fragment)\": \(error.message)" }
            if error.message.count < 12 { return "error message too terse to act on: \(error.message)" }
            return nil
        case .anyWellFormed:
            guard replies.count <= 1 else { return "\(replies.count) replies to one line" }
            guard case .errorResponse(let id, let error)? = replies.first else { return nil }
            let allowed = [-32700, -32600, -32601, -32602, JSONRPCError.requestRefusedCode, JSONRPCError.permissionDeniedCode]
            if !allowed.contains(error.code) { return "unexpected error code: \(error)" }
            if error.code == JSONRPCError.parseErrorCode, id != nil { return "a parse error carries id \(id!)" }
            return nil
        }
    }

    static func writeAll(_ bytes: [UInt8], to fd: CInt) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

/// Failures from all workers.
final class FuzzFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var all: [String] { lock.withLock { stored } }
    func add(_ failure: String) { lock.withLock { stored.append(failure) } }
}

