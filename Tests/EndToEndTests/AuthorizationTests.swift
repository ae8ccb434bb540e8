import Foundation
import Testing
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// DESIGN.md "Who may do what", with real peers: the real widgethostd (as root) and the
/// real CLI run as `nobody` through `setpriv`, so `SO_PEERCRED` reports another uid and gid.
@Suite(
    "Who may do what: a real non-admin peer", .serialized,
    .enabled(if: getuid() == 0, "runs clients as nobody through setpriv, which needs root; not running as root"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv (util-linux) is missing"))
struct AuthorizationTests {
    /// `nogroup` may administer; `users` may not. org.other.clock may only be claimed by root.
    static let config = """
        [control]
        admin_groups = ["nogroup"]

        [control.app_uids]
        "org.other.clock" = [0]
        """

    static func deniedMessage(_ method: String) -> String {
        "\(method) needs root, the daemon's own user or a group in control.admin_groups; uid 65534 is none of these"
    }

    @Test("A non-admin peer is refused add, remove and rescan with -32001 and a clear message; reads and reloads for its app work")
    func nonAdminPeer() throws {
        let daemon = try Self.startDaemon()
        #expect(try daemon.cli("add", "PyClock", "--family", "systemSmall").status == 0)
        #expect(try daemon.cli("add", "OtherClock", "--family", "systemSmall").status == 0)
        let peer = Peer(group: "users", socket: daemon.socket)

        // The CLI as a user would see it: exit 77 and the daemon's sentence.
        for (arguments, method) in [(["add", "PyClock", "--family", "systemMedium"], "addWidget"),
            (["remove", "w1"], "removeWidget"), (["rescan"], "rescan")]
        {
            let run = try peer.cli(arguments)
            #expect(run.status == 77, "\(arguments): \(run.stderr)")
            #expect(run.stderr == "widgethost: \(Self.deniedMessage(method))\n")
        }
        #expect(try daemon.cli("status", "w1").status == 0, "w1 is still there")

        // On the wire: the code, with the request's id.
        let replies = try peer.raw([
            #"{"jsonrpc":"2.0","id":1,"method":"addWidget","params":{"kind":"PyClock","family":"systemSmall"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"removeWidget","params":{"id":"w1"}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"rescan"}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"extensions"}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"getCurrentConfigurations","params":{"app":"org.example.pyclock"}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"timeline","params":{"id":"w1"}}"#,
            #"{"jsonrpc":"2.0","id":8,"method":"recordView","params":{"id":"w1"}}"#,
            #"{"jsonrpc":"2.0","id":9,"method":"reloadTimelines","params":{"kind":"PyClock","app":"org.example.pyclock","foreground":true}}"#,
            #"{"jsonrpc":"2.0","id":10,"method":"reloadAllTimelines","params":{"app":"org.example.pyclock"}}"#,
            #"{"jsonrpc":"2.0","id":11,"method":"reloadAllTimelines","params":{"app":"org.other.clock"}}"#,
            #"{"jsonrpc":"2.0","id":12,"method":"reloadTimelines","params":{"kind":"OtherClock","app":"org.other.clock"}}"#,
        ])
        try #require(replies.count == 12, "\(replies)")
        for (index, method) in ["addWidget", "removeWidget", "rescan"].enumerated() {
            guard case .errorResponse(.number(index + 1)?, let error) = replies[index] else {
                Issue.record("\(method) was not refused: \(replies[index])")
                continue
            }
            #expect(error.code == JSONRPCError.permissionDeniedCode)
            #expect(error.message == Self.deniedMessage(method))
        }
        for index in 3..<10 {
            guard case .response(.number(index + 1), let result) = replies[index] else {
                Issue.record("request \(index + 1) should succeed for any peer: \(replies[index])")
                continue
            }
            if index == 3 { #expect(result["widgets"] != nil) }
        }
        if case .response(_, let result) = replies[9] {
            let outcomes = try result.decode(as: ReloadResult.self).outcomes
            #expect(outcomes.map(\.id) == ["w1"], "only its own app's widgets")
        }
        for index in [10, 11] {
            guard case .errorResponse(.number(index + 1)?, let error) = replies[index] else {
                Issue.record("claiming a pinned app should be refused: \(replies[index])")
                continue
            }
            #expect(error.code == JSONRPCError.permissionDeniedCode)
            #expect(error.message == "uid 65534 may not act for app org.other.clock (control.app_uids allows 0)")
        }

        let reload = try peer.cli(["reload", "--all", "--app", "org.other.clock"])
        #expect(reload.status == 77)
        #expect(reload.stderr.contains("uid 65534 may not act for app org.other.clock"))
        let status = try peer.cli(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("w1") && status.stdout.contains("w2"))
    }

    @Test("A peer whose gid is in control.admin_groups may add, remove and rescan")
    func adminGroupPeer() throws {
        let daemon = try Self.startDaemon()
        let admin = Peer(group: "nogroup", socket: daemon.socket)
        let added = try admin.cli(["add", "PyClock", "--family", "systemSmall"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("w1"))
        #expect(try admin.cli(["rescan"]).status == 0)
        let removed = try admin.cli(["remove", "w1"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try daemon.cli("status", "w1").status == 65, "w1 is gone")
    }

    @Test("Supplementary groups count: nobody with primary group users and nogroup among its groups is admin")
    func supplementaryGroupPeer() throws {
        let daemon = try Self.startDaemon()
        let admin = Peer(group: "users", socket: daemon.socket, supplementary: ["nogroup"])
        let added = try admin.cli(["add", "PyClock", "--family", "systemSmall"])
        #expect(added.status == 0, "\(added.stderr)")
        // The same peer without the group is refused: the group, not the uid, made it admin.
        let plain = Peer(group: "users", socket: daemon.socket)
        #expect(try plain.cli(["remove", "w1"]).status == 77)
        #expect(try admin.cli(["remove", "w1"]).status == 0)
    }

    /// The daemon, its socket reachable by others (as `SocketMode=0666` would make it).
    static func startDaemon() throws -> RealDaemon {
        let daemon = try RealDaemon(config: config)
        chmod(daemon.directory, 0o755)
        chmod(daemon.socket, 0o666)
        return daemon
    }
}

/// A client running as `nobody` with the given primary group and supplementary groups.
private struct Peer {
    let group: String
    let socket: String
    var supplementary: [String] = []

    var prefix: [String] {
        ["--reuid", "nobody", "--regid", group]
            + (supplementary.isEmpty ? ["--clear-groups"] : ["--groups", supplementary.joined(separator: ",")])
    }

    func cli(_ arguments: [String]) throws -> CLIRun {
        let binary = try #require(CLI.binary, "widgethost is not built")
        return try run(prefix + [binary.path] + arguments, input: nil)
    }

    /// Each line on one connection; the reply lines, parsed.
    func raw(_ lines: [String]) throws -> [JSONRPCMessage] {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            f = s.makefile("rwb")
            for line in sys.stdin:
                f.write(line.encode()); f.flush()
                sys.stdout.write(f.readline().decode())
            """
        let run = try run(prefix + ["python3", "-c", script, socket], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").compactMap {
            if case .message(let message) = JSONRPCMessage.parse(Array($0.utf8)) { return message }
            return nil
        }
    }

    private func run(_ arguments: [String], input: String?) throws -> CLIRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "COLUMNS": "80", "WIDGETHOST_SOCKET": socket]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}
