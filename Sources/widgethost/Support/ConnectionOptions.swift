import ArgumentParser
import Foundation
import WidgetHostClient

/// `--socket`, `--json` and `--timeout`, shared by every command.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daemon's control socket (default: $WIDGETHOST_SOCKET, else \(ControlSocketPath.defaultPath)).",
            valueName: "path"),
        completion: .file())
    var socket: String?

    @Flag(name: .long, help: "Print the daemon's answer as JSON with sorted keys, for scripts and jq.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp("Seconds to wait for the daemon's answer.", valueName: "seconds"))
    var timeout: Double = 30

    var socketPath: String { settings.socketPath }

    func validate() throws {
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds, not \(timeout)")
        }
    }

    /// The options' values, without the parser's property wrappers (`ReloadFastPath` makes them too).
    var settings: ConnectionSettings { ConnectionSettings(socket: socket, json: json, timeout: timeout) }

    /// Connects, runs `body`, and turns a client error into one stderr line and an exit code.
    func withClient<T>(_ body: (ControlClient) throws -> T) throws -> T {
        try settings.withClient(body)
    }
}

/// `--socket`, `--json` and `--timeout` as values.
struct ConnectionSettings: Equatable {
    var socket: String?
    var json = false
    var timeout: Double = 30
    /// The environment the socket's path is looked up in; nil: the process's.
    var environment: [String: String]?

    var socketPath: String {
        ControlSocketPath.resolve(explicit: socket, environment: environment ?? ProcessInfo.processInfo.environment)
    }

    /// Connects (or takes over the front's connection, `resumed`), runs `body`, and turns a
    /// client error into one stderr line and an exit code.
    func withClient<T>(resumed: ResumedRequest? = nil, _ body: (ControlClient) throws -> T) throws -> T {
        do {
            let timeout: Duration = .milliseconds(Int64(timeout * 1000))
            let client =
                try resumed.map {
                    ControlClient(adopting: $0.descriptor, socketPath: socketPath, timeout: timeout, requestsSent: 1)
                } ?? ControlClient(socketPath: socketPath, timeout: timeout)
            defer { client.close() }
            return try body(client)
        } catch let error as ControlClientError {
            Console.error(Failure.line(for: error))
            throw ExitCode(Failure.exitCode(for: error))
        }
    }
}

/// How a failed call ends the process: one line on stderr and a sysexits code.
enum Failure {
    /// EX_DATAERR: the daemon refused the request (unknown kind, unknown widget, …).
    static let refused: Int32 = 65
    /// EX_UNAVAILABLE: the daemon is not reachable.
    static let unavailable: Int32 = 69
    /// EX_IOERR: the socket failed mid-conversation.
    static let ioError: Int32 = 74
    /// EX_TEMPFAIL: the daemon did not answer in time.
    static let timedOut: Int32 = 75
    /// EX_PROTOCOL: the daemon's answer made no sense (a version mismatch, most likely).
    static let protocolError: Int32 = 76
    /// EX_NOPERM: the daemon said this caller may not do that.
    static let permissionDenied: Int32 = 77

    static func line(for error: ControlClientError) -> String {
        var line = "widgethost: \(error.description)"
        if let hint = error.hint { line += "; \(hint)" }
        return line
    }

    static func exitCode(for error: ControlClientError) -> Int32 {
        switch error {
        case .daemonUnreachable: unavailable
        case .rpc(let rpc):
            switch rpc.code {
            case -32000, -32602: refused
            case -32001: permissionDenied
            default: protocolError
            }
        case .timedOut: timedOut
        case .connectionClosed, .invalidReply: protocolError
        case .io: ioError
        }
    }
}
