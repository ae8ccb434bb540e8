import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit

/// The host's side of the extension channel, in process: JSON-RPC lines into the SDK's
/// `ExtensionServer`, results out (an error reply throws).
struct ExampleChannel {
    let server: ExtensionServer

    init(_ widget: some Widget) throws { server = try ExtensionServer(widget: widget) }

    init(server: ExtensionServer) { self.server = server }

    func call(_ method: String, _ params: JSONValue) async throws -> JSONValue {
        let line = try JSONRPCMessage.request(id: .number(1), method: method, params: params).encodedLine()
        guard let reply = await server.handle(line: Array(line.dropLast())) else { throw ExtensionReplyError(detail: "no reply") }
        switch JSONRPCMessage.parse(reply.dropLast()) {
        case .message(.response(_, let result)): return result
        case .message(.errorResponse(_, let error)): throw ExtensionReplyError(detail: error.message)
        default: throw ExtensionReplyError(detail: String(decoding: reply, as: UTF8.self))
        }
    }

    func timeline(_ kind: String, _ family: WidgetFamily) async throws -> TimelinePayload {
        try await call(
            "timeline/get",
            ["kind": .string(kind), "family": .string(family.rawValue), "widgetId": "w1", "now": "2026-02-15T08:00:00Z"]
        ).decode(as: TimelinePayload.self)
    }

    func entry(_ method: String, _ kind: String, _ family: WidgetFamily) async throws -> TimelineEntryPayload {
        try await call(method, ["kind": .string(kind), "family": .string(family.rawValue), "isPreview": false])
            .decode(as: TimelineEntryPayload.self)
    }
}

/// A fresh App Group container directory, removed by `remove()`.
struct TemporaryContainer {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A built example app command (`w8trackr`, `lucidpal`, `widgy`), run with only its App
/// Group in the environment and a control socket nobody listens on.
struct AppCommand {
    let name: String
    let group: String
    let container: URL

    struct Run {
        let status: Int32
        let output: String
        let error: String
    }

    func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = ExtensionUnderTest.productsDirectory.appendingPathComponent(name)
        process.arguments = arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "TZ": "UTC",
            "WIDGETHOST_APP_GROUPS": "\(group)=\(container.path)",
            "WIDGETHOST_SOCKET": container.path + "/no-daemon.sock",
        ]
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        return (process, output, error)
    }

    func run(_ arguments: [String]) throws -> Run {
        let (process, output, error) = try start(arguments)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            error: String(decoding: err, as: UTF8.self))
    }

    /// Starts every command at once, then waits for all; each must succeed.
    func runConcurrently(_ commands: [[String]]) throws {
        let started = try commands.map { try start($0) }
        for (arguments, (process, output, error)) in zip(commands, started) {
            _ = output.fileHandleForReading.readDataToEndOfFile()
            let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            // Every run reports the unreachable daemon; anything else is a failure.
            #expect(process.terminationStatus == 0, "\(name) \(arguments.joined(separator: " ")): \(message)")
        }
    }
}

extension JSONValue {
    /// A number whether the encoder wrote it as an integer or not.
    var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}

/// Runs `body(i)` for i in 0..<count on `count` threads at once and waits for all.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let group = DispatchGroup()
    let failures = Failures()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            do { try body(index) } catch { failures.add("\(error)") }
        }
    }
    group.wait()
    #expect(failures.all.isEmpty, "\(failures.all)")
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
