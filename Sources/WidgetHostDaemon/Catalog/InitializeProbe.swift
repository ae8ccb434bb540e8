import Foundation
import NIOCore
import WidgetHostProtocol

/// Starts an extension once to ask `initialize` which kinds and families it offers — the
/// widget gallery's question. The process is stopped as soon as it has answered.
enum InitializeProbe {
    static let timeout = TimeAmount.seconds(5)

    static func run(_ launch: ExtensionLaunch, in table: ProcessTable) -> EventLoopFuture<Result<InitializeResult, ProbeFailure>> {
        let eventLoop = table.eventLoop
        eventLoop.preconditionInEventLoop()
        let promise = eventLoop.makePromise(of: Result<InitializeResult, ProbeFailure>.self)
        var answered = false
        var process: ExtensionProcess?
        // Cancelled with the answer: left pending, it woke an idle daemon 5 s after each scan.
        var deadline: Scheduled<Void>?
        let finish = { (result: Result<InitializeResult, ProbeFailure>) in
            guard !answered else { return }
            answered = true
            deadline?.cancel()
            process?.terminate(grace: .milliseconds(500))
            promise.succeed(result)
        }
        do {
            process = try ExtensionProcess.start(launch, maxLineBytes: 1024 * 1024, in: table) { event in
                switch event {
                case .line(.message(.response(.string("initialize"), let result)), _):
                    do {
                        finish(.success(try result.decode(as: InitializeResult.self)))
                    } catch {
                        finish(.failure(ProbeFailure("its initialize reply does not match the protocol: \(describe(error))")))
                    }
                case .line(.message(.errorResponse(_, let error)), _):
                    finish(.failure(ProbeFailure("it answered initialize with error \(error.code): \(error.message)")))
                case .line(.invalid(_, let error), _):
                    finish(.failure(ProbeFailure("its stdout is not JSON-RPC (\(error.message))")))
                case .line, .stderr:
                    break
                case .oversizedLine(let count):
                    finish(.failure(ProbeFailure("it wrote a \(count)-byte line to stdout")))
                case .exited(let status):
                    finish(.failure(ProbeFailure("it \(status) before answering initialize")))
                }
            }
        } catch {
            return eventLoop.makeSucceededFuture(.failure(ProbeFailure(error.description)))
        }
        process?.send(
            .request(
                id: .string("initialize"), method: ExtensionMethod.initialize.rawValue,
                params: try? JSONValue(encoding: InitializeParams())))
        deadline = eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            finish(.failure(ProbeFailure("it did not answer initialize within 5 s")))
            process?.kill()
        }
        return promise.futureResult
    }
}

struct ProbeFailure: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
