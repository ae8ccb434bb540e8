import Foundation
import Testing
import WidgetHostProtocol

/// `widgethost reload`'s simple forms skip the argument parser (`ReloadFastPath`). Each argv
/// below runs twice, once as it is and once with `WIDGETHOST_FAST_PATH=0` (the parser):
/// stdout, stderr, the exit status and the request the daemon got must be the same.
@Suite("widgethost reload: the fast path and the parser agree", .tags(.cliProcess, .controlSocket))
struct CLIFastPathTests {
    enum Daemon: String, CaseIterable, Sendable {
        case answers, refuses, denies, absent, garbles
    }

    static let argvs: [[String]] = [
        ["reload", "--kind", "BirthdayHomeWidget"],
        ["reload", "--kind=BirthdayHomeWidget"],
        ["reload", "--kind", "BirthdayHomeWidget", "--app", "com.birthdayreminders", "--foreground"],
        ["reload", "--foreground", "--kind", "BirthdayHomeWidget", "--json"],
        ["reload", "--all", "--app", "com.birthdayreminders"],
        ["reload", "--all", "--app=com.birthdayreminders", "--foreground", "--json"],
        ["reload", "--all"],  // WIDGETHOST_APP below
        // Forms the fast path leaves to the parser: they must still come out the same.
        ["reload"],
        ["reload", "--all", "--kind", "K"],
        ["reload", "--kind"],
        ["reload", "--kind", "K", "--kind", "L"],
        ["reload", "--kind", ""],
        ["reload", "--kind", "-x"],
        ["reload", "--kind", "K", "--timeout", "5"],
        ["reload", "--kind", "K", "--bogus"],
        ["reload", "--kind", "K", "extra"],
        ["reload", "--json=yes", "--kind", "K"],
        ["reload", "--help"],
        ["reload", "-h"],
    ]

    static func server(_ daemon: Daemon) throws -> FakeControlServer? {
        switch daemon {
        case .absent: return nil
        case .answers:
            return try FakeControlServer { request in [.reply(request.id, ReloadResult.sample)] }
        case .refuses:
            return try FakeControlServer { request in [.error(request.id, code: -32000, message: "unknown widget kind")] }
        case .denies:
            return try FakeControlServer { request in [.error(request.id, code: -32001, message: "not your app")] }
        case .garbles:
            // A result of the wrong shape: exit 76.
            return try FakeControlServer { request in [.reply(request.id, 42)] }
        }
    }

    @Test("Same output, exit status and request both ways", arguments: argvs, Daemon.allCases)
    func samePaths(argv: [String], daemon: Daemon) throws {
        let directory = try TemporaryDirectory()
        var results: [(CLIRun, [FakeControlServer.Request])] = []
        for fastPath in [true, false] {
            let server = try Self.server(daemon)
            defer { server?.stop() }
            let socket = server?.path ?? directory.path + "/nobody.sock"
            var environment = ["WIDGETHOST_SOCKET": socket, "WIDGETHOST_APP": "com.birthdayreminders"]
            if !fastPath { environment["WIDGETHOST_FAST_PATH"] = "0" }
            let run = try CLI.run(argv, environment: environment)
            results.append((run, server?.requests ?? []))
        }
        let (fast, parser) = (results[0], results[1])
        #expect(fast.0.status == parser.0.status)
        #expect(fast.0.stdout == parser.0.stdout)
        #expect(fast.0.stderr == parser.0.stderr)
        #expect(fast.1 == parser.1)
    }

    @Test("--socket on the command line, as name value and name=value, both ways")
    func explicitSocket() throws {
        for form in [["--socket", "PATH"], ["--socket=PATH"]] {
            var runs: [CLIRun] = []
            for fastPath in [true, false] {
                let server = try #require(try Self.server(.answers))
                defer { server.stop() }
                let argv = ["reload", "--kind", "K"] + form.map { $0.replacingOccurrences(of: "PATH", with: server.path) }
                let run = try CLI.run(argv, environment: fastPath ? [:] : ["WIDGETHOST_FAST_PATH": "0"])
                #expect(server.requests.map(\.method) == ["reloadTimelines"])
                runs.append(run)
            }
            #expect(runs[0].status == 0)
            #expect(runs[0].stdout == runs[1].stdout)
            #expect(runs[0].stderr == runs[1].stderr)
        }
    }
}
