import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit

/// The host's side of the extension channel, in process: lines go to the server's
/// line handler and replies come back parsed, checked to be one NDJSON line each.
struct Channel {
    let server: ExtensionServer

    init(_ server: ExtensionServer) { self.server = server }

    /// Sends a raw line; returns the parsed reply, or nil when the server sent none.
    func send(_ line: String) async throws -> JSONRPCMessage? {
        guard let reply = await server.handle(line: Array(line.utf8)) else { return nil }
        #expect(reply.last == UInt8(ascii: "\n"), "a reply ends with a newline")
        #expect(!reply.dropLast().contains(UInt8(ascii: "\n")), "a reply is a single line")
        guard case .message(let message) = JSONRPCMessage.parse(reply.dropLast()) else {
            Issue.record("the reply is not a JSON-RPC message: \(String(decoding: reply, as: UTF8.self))")
            return nil
        }
        return message
    }

    /// Sends a request and returns its result or its error.
    func call(_ method: String, _ params: JSONValue? = nil, id: JSONRPCID = .number(7)) async throws
        -> Result<JSONValue, JSONRPCError>
    {
        let line = try JSONRPCMessage.request(id: id, method: method, params: params).encodedLine()
        let reply = try await send(String(decoding: line.dropLast(), as: UTF8.self))
        switch reply {
        case .response(let replyID, let result)?:
            #expect(replyID == id)
            return .success(result)
        case .errorResponse(let replyID, let error)?:
            #expect(replyID == id)
            return .failure(error)
        default:
            Issue.record("expected a response to \(method), got \(String(describing: reply))")
            throw ChannelError.noResponse
        }
    }

    func result<T: Decodable>(_ method: String, _ params: JSONValue? = nil, as type: T.Type) async throws -> T {
        try await call(method, params).get().decode(as: T.self)
    }

    func error(_ method: String, _ params: JSONValue? = nil) async throws -> JSONRPCError {
        switch try await call(method, params) {
        case .success(let result):
            Issue.record("expected an error from \(method), got \(result)")
            throw ChannelError.noResponse
        case .failure(let error):
            return error
        }
    }

    enum ChannelError: Error { case noResponse }
}

func birthdayChannel() throws -> Channel {
    Channel(try ExtensionServer(bundle: BirthdayRemindersWidgetBundle()))
}
