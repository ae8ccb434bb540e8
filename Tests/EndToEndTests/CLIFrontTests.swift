import Foundation
import Synchronization
import Testing
import WidgetHostProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `widgethost` is a front (Sources/widgethost-front): it sends the simple reloads itself,
/// prints the plain answers, and hands everything else to the full CLI (`widgethost-cli`),
/// after sending with the connection and its reply unread. Each reply below comes back to
/// both ways (the front, and the full CLI's parser with `WIDGETHOST_FAST_PATH=0`): stdout,
/// stderr, the exit status and the requests the daemon got must be the same.
@Suite("widgethost's front and the full CLI agree on every reply", .tags(.cliProcess, .controlSocket))
struct CLIFrontTests {
    static let now = "2026-02-15T08:01:00Z"

    /// Replies to request 1, as raw lines; the ones the front prints itself are in `plain`.
    static let replies: [String: [FakeControlServer.Action]] = [
        "started": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"now":"\#(now)","outcomes":[{"budget":{"limit":70,"used":1},"budgeted":true,"id":"w1","kind":"K","outcome":"started"},{"budgeted":false,"id":"w12","kind":"K","outcome":"started"}]}}"#)],
        "mixed": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"now":"2026-02-15T08:01:00.25Z","outcomes":[{"budgeted":true,"id":"w1","kind":"LongerKind","outcome":"deferred","reason":"reloadInProgress"},{"budgeted":true,"id":"w2","kind":"K","outcome":"deferred","reason":"extensionUnavailable","until":null},{"budgeted":true,"id":"w3","kind":"K","outcome":"deferred","reason":"backoff"},{"budgeted":true,"id":"w4","kind":"K","outcome":"deferred"},{"budgeted":true,"id":"w5","kind":"K","outcome":"coalesced","reason":"minInterval"},{"budgeted":true,"id":"w6","kind":"K","outcome":"coalesced","budget":null,"reason":null}]}}"#)],
        "empty": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[]}}"#)],
        "unicode": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[{"budgeted":true,"id":"w1","kind":"Cafe\u0301 \ud83c\udf82","outcome":"started"},{"budgeted":true,"id":"w2","kind":"Ünïcödé/\"q\"\\","outcome":"started"}]}}"#)],
        "extra keys, spaces, key order": [.line(#" { "result" : { "outcomes" : [ { "outcome" : "started", "new" : [1, {"x": null}], "kind" : "K", "id" : "w1", "budgeted" : true, "budget" : { "used" : 3, "limit" : 40, "more": -1.5e3 } } ], "extra": {} }, "jsonrpc" : "2.0", "id" : 1 } "#)],
        // Handed over with the reply unread:
        "a time to write": [.reply(.number(1), ReloadResult.sample)],
        "coalesced until": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"now":"\#(now)","outcomes":[{"budgeted":true,"id":"w1","kind":"K","outcome":"coalesced","reason":"minInterval","until":"2026-02-16T08:05:00Z"}]}}"#)],
        "a notification first": [
            .line(#"{"jsonrpc":"2.0","method":"event","params":{"kind":"x"}}"#),
            .reply(.number(1), ReloadResult(outcomes: [WidgetReloadOutcome(id: "w1", kind: "K", outcome: .started, budgeted: true)])),
        ],
        "another id first": [
            .line(#"{"id":7,"jsonrpc":"2.0","result":{"outcomes":[]}}"#),
            .line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[]}}"#),
        ],
        "an error": [.error(.number(1), code: -32000, message: "unknown widget kind")],
        "an error with a null id": [.line(#"{"error":{"code":-32600,"message":"bad line"},"id":null,"jsonrpc":"2.0"}"#)],
        "closed": [.close],
        "a pause, then the answer": [.pause(.milliseconds(200)), .line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[]}}"#)],
        // The daemon writes a line in more than one piece; the front waits for the rest.
        "the answer in three pieces": [
            .bytes(#"{"id":1,"jsonrpc":"2.0","res"#), .pause(.milliseconds(30)),
            .bytes(#"ult":{"outcomes":[{"budgeted":true,"id":"w1","kind":"K","outcome":"started"}]}}"#),
            .pause(.milliseconds(300)), .line(""),
        ],
        "half a line, then the end": [.bytes(#"{"id":1,"jsonrpc":"2.0","res"#), .close],
        "missing fields": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[{"id":"w1"}]}}"#)],
        "an unknown reason": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[{"budgeted":true,"id":"w1","kind":"K","outcome":"deferred","reason":"bored"}]}}"#)],
        "an unknown outcome": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[{"budgeted":true,"id":"w1","kind":"K","outcome":"exploded"}]}}"#)],
        "a fractional count": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[{"budget":{"limit":70,"used":1.5},"budgeted":true,"id":"w1","kind":"K","outcome":"started"}]}}"#)],
        "a count as a string": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[{"budget":{"limit":"70","used":1},"budgeted":true,"id":"w1","kind":"K","outcome":"started"}]}}"#)],
        "a huge count": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[{"budget":{"limit":99999999999999999999,"used":1},"budgeted":true,"id":"w1","kind":"K","outcome":"started"}]}}"#)],
        "a bad date": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"now":"2026-02-30T08:01:00Z","outcomes":[]}}"#)],
        "an offset date": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"now":"2026-02-15T08:01:00+01:00","outcomes":[]}}"#)],
        "a trailing comma": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[],}}"#)],
        "a duplicate key": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[]},"result":{"outcomes":[]}}"#)],
        "id 1.0": [.line(#"{"id":1.0,"jsonrpc":"2.0","result":{"outcomes":[]}}"#)],
        "no jsonrpc": [.line(#"{"id":1,"result":{"outcomes":[]}}"#)],
        "result and error": [.line(#"{"error":{"code":-32000,"message":"no"},"id":1,"jsonrpc":"2.0","result":{"outcomes":[]}}"#)],
        "a lone surrogate": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[{"budgeted":true,"id":"w1","kind":"\ud800","outcome":"started"}]}}"#)],
        "a raw control character": [.line("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"outcomes\":[{\"budgeted\":true,\"id\":\"w1\",\"kind\":\"a\u{01}b\",\"outcome\":\"started\"}]}}")],
        "deep nesting": [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[],"x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}}")],
        "not JSON": [.line("hello"), .close],
        "an empty line": [.line(""), .line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[]}}"#)],
        "the wrong shape": [.reply(.number(1), 42)],
    ]

    static let plain: Set<String> = [
        "started", "mixed", "empty", "unicode", "extra keys, spaces, key order", "a pause, then the answer",
        "the answer in three pieces",
    ]

    static let argvs: [[String]] = [
        ["reload", "--kind", "K"],
        ["reload", "--all", "--app", "com.example", "--foreground"],
    ]

    @Test("Same output, exit status and requests both ways", arguments: replies.keys.sorted())
    func sameBothWays(reply: String) throws {
        let actions = try #require(Self.replies[reply])
        for argv in Self.argvs {
            var results: [(CLIRun, [FakeControlServer.Request])] = []
            for fastPath in [true, false] {
                // Closing after the reply ends the lines a client skips (not JSON-RPC, not its id)
                // at once, instead of at the 30-second timeout.
                let server = try FakeControlServer { request in request.id == .number(1) ? actions + [.close] : [] }
                defer { server.stop() }
                var environment = ["WIDGETHOST_SOCKET": server.path]
                if !fastPath { environment["WIDGETHOST_FAST_PATH"] = "0" }
                var run = try CLI.run(argv, environment: environment)
                run.stderr = run.stderr.replacingOccurrences(of: server.path, with: "SOCKET")
                results.append((run, server.requests))
            }
            let (front, parser) = (results[0], results[1])
            #expect(front.0.status == parser.0.status, "\(reply) \(argv)")
            #expect(front.0.stdout == parser.0.stdout, "\(reply) \(argv)")
            #expect(front.0.stderr == parser.0.stderr, "\(reply) \(argv)")
            #expect(front.1 == parser.1, "\(reply) \(argv)")
            #expect(front.1.count == 1, "one request, never sent twice: \(reply) \(argv)")
        }
    }

    /// With the full CLI out of reach (`WIDGETHOST_CLI` names nothing), the plain replies
    /// still print: the front handles them itself. Every other reply needs the full CLI.
    @Test("The front prints the plain replies itself", arguments: replies.keys.sorted())
    func frontAlone(reply: String) throws {
        let actions = try #require(Self.replies[reply])
        let server = try FakeControlServer { request in request.id == .number(1) ? actions + [.close] : [] }
        defer { server.stop() }
        let run = try CLI.run(
            ["reload", "--kind", "K"], environment: ["WIDGETHOST_SOCKET": server.path, "WIDGETHOST_CLI": "/nonexistent/widgethost-cli"])
        if Self.plain.contains(reply) {
            #expect(run.status == 0, "\(reply): \(run.stderr)")
            #expect(run.stderr == "")
        } else {
            #expect(run.status == 70, "\(reply): \(run.stdout)")
            #expect(run.stderr == "widgethost: cannot run /nonexistent/widgethost-cli (No such file or directory); reinstall widgethost\n")
        }
        #expect(server.requests.count == 1)
    }

    /// A full CLI beside the front that exists but will not run: the message names it with its
    /// own error, not with the last candidate's (`/usr/libexec/...`: "No such file or directory").
    @Test("A full CLI that is there but will not run is named with its own error")
    func unrunnableFullCLI() throws {
        let front = try #require(CLI.binary)
        let directory = try TemporaryDirectory()
        let bin = directory.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: front.path, toPath: bin + "/widgethost")
        #expect(FileManager.default.createFile(
            atPath: bin + "/widgethost-cli", contents: Data("not a program".utf8), attributes: [.posixPermissions: 0o644]))
        let run = try CLI.run(["list"], environment: ["PATH": "/usr/bin:/bin"], executable: URL(fileURLWithPath: bin + "/widgethost"))
        #expect(run.status == 70)
        #expect(run.stderr == "widgethost: cannot run \(bin)/widgethost-cli (Permission denied); reinstall widgethost\n")
    }

    @Test("What the front hands over before connecting: other commands, --json, the parser's forms, no daemon")
    func handedOverUnsent() throws {
        let directory = try TemporaryDirectory()
        let server = try FakeControlServer { request in [.line(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[]}}"#)] }
        defer { server.stop() }
        let missing = ["WIDGETHOST_CLI": "/nonexistent/widgethost-cli"]
        for (argv, socket) in [
            (["status"], server.path), (["reload", "--kind", "K", "--json"], server.path),
            (["reload", "--kind", "K", "--timeout", "5"], server.path), (["reload", "--help"], server.path),
            (["reload", "--kind", "K"], directory.path + "/nobody.sock"),
            (["reload", "--kind", "a\u{01}b"], server.path),  // a control character: the encoder escapes it
        ] {
            let run = try CLI.run(argv, environment: missing.merging(["WIDGETHOST_SOCKET": socket]) { $1 })
            #expect(run.status == 70, "\(argv)")
        }
        #expect(server.requests.isEmpty, "nothing sent before handing over")
    }

    @Test("The request on the wire is the full CLI's, byte for byte")
    func sameRequestBytes() throws {
        for argv in Self.argvs + [["reload", "--kind", #"a"b\c/é"#, "--app=x", "--socket", "PATH"]] {
            var lines: [String] = []
            for fastPath in [true, false] {
                let listener = try RawListener()
                defer { listener.stop() }
                var environment = ["WIDGETHOST_SOCKET": listener.path]
                if !fastPath { environment["WIDGETHOST_FAST_PATH"] = "0" }
                _ = try CLI.run(argv.map { $0 == "PATH" ? listener.path : $0 }, environment: environment)
                lines.append(listener.lines.first ?? "")
            }
            #expect(!lines[0].isEmpty)
            #expect(lines[0] == lines[1], "\(argv)")
        }
    }

    @Test("A WIDGETHOST_RESUME the front never writes is refused, not trusted", arguments: ["", "x", "1:5", "9:5", "99:-1", "99:", "3:5:7"])
    func malformedResume(value: String) throws {
        let fullCLI = try #require(CLI.binary).deletingLastPathComponent().appendingPathComponent("widgethost-cli")
        let run = try CLI.run(
            ["reload", "--kind", "K"], environment: ["WIDGETHOST_RESUME": value, "WIDGETHOST_SOCKET": "/nonexistent.sock"],
            executable: fullCLI)
        #expect(run.status == 70)
        #expect(run.stderr.contains("WIDGETHOST_RESUME=\(value) is not a connection"), "\(run.stderr)")
    }
}

/// A socket that records the first line each client writes, raw, and answers it with an
/// empty reload result (FakeControlServer parses what it reads).
final class RawListener: Sendable {
    let path: String
    private let directory: TemporaryDirectory
    private let listener: Int32
    private let received = Mutex<[String]>([])
    private let stopped = Atomic<Bool>(false)

    var lines: [String] { received.withLock { $0 } }

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path + "/raw.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EIO) }
        Thread { [self] in serve() }.start()
    }

    private func serve() {
        defer { _ = Glibc.close(listener) }  // here, not in stop(): see FakeControlServer.stop
        while true {
            let connection = accept(listener, nil, nil)
            if stopped.load(ordering: .sequentiallyConsistent) || connection < 0 {
                if connection >= 0 { _ = Glibc.close(connection) }
                return
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while Glibc.read(connection, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
            received.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
            let reply = Array(#"{"id":1,"jsonrpc":"2.0","result":{"outcomes":[]}}"#.utf8) + [0x0A]
            _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            _ = Glibc.close(connection)
        }
    }

    func stop() {
        if !stopped.exchange(true, ordering: .sequentiallyConsistent) { _ = shutdown(listener, Int32(SHUT_RDWR)) }
    }
}
