import Foundation

/// One line on either channel, classified. Parsing never throws: whatever the bytes,
/// the caller gets either a message or the exact JSON-RPC error to send back.
public enum JSONRPCMessage: Sendable, Hashable {
    case request(id: JSONRPCID, method: String, params: JSONValue?)
    case notification(method: String, params: JSONValue?)
    case response(id: JSONRPCID, result: JSONValue)
    case errorResponse(id: JSONRPCID?, error: JSONRPCError)

    /// What a line turned out to be.
    public enum Parsed: Sendable, Hashable {
        case message(JSONRPCMessage)
        /// Not a valid message. `id` is set when the line was an object with a usable id,
        /// so that the error reply can be matched by the client.
        case invalid(id: JSONRPCID?, error: JSONRPCError)
    }

    public static func parse(_ line: some Collection<UInt8>) -> Parsed {
        let value: JSONValue
        switch decodeValue(line) {
        case .success(let decoded): value = decoded
        case .failure(let error): return .invalid(id: nil, error: error)
        }
        if case .array = value {
            return .invalid(id: nil, error: .invalidRequest("batches are not supported; send one object per line"))
        }
        return classify(value)
    }

    /// A line as one JSON value, or the -32700 to send back: plain JSON is read by
    /// `JSONValueParser`, anything else by Foundation, whose value or verdict stands (with a
    /// comma before `}` or `]` refused, which Foundation's reader accepts).
    static func decodeValue(_ line: some Collection<UInt8>) -> Result<JSONValue, JSONRPCError> {
        let bytes = line.withContiguousStorageIfAvailable { Array($0) } ?? Array(line)
        if let value = bytes.withUnsafeBufferPointer(JSONValueParser.parse) { return .success(value) }
        let value: JSONValue
        do {
            value = try WireCoding.decoder.decode(JSONValue.self, from: Data(bytes))
        } catch {
            return .failure(.parseError("the line is not valid JSON"))
        }
        if let offset = TrailingComma.find(in: bytes) {
            return .failure(.parseError("the line is not valid JSON: a comma before } or ] at byte \(offset)"))
        }
        return .success(value)
    }

    /// One decoded JSON value as a message: a line's, or a batch member's (`JSONRPCLine`).
    public static func classify(_ value: JSONValue) -> Parsed {
        guard case .object(let object) = value else {
            return .invalid(id: nil, error: .invalidRequest("expected a JSON object"))
        }

        var id: JSONRPCID?
        switch object["id"] {
        case nil, .null?: id = nil
        case .integer(let number)?: id = .number(number)
        case .string(let string)?: id = .string(string)
        case .some:
            return .invalid(id: nil, error: .invalidRequest("\"id\" must be a number or a string"))
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return .invalid(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\""))
        }

        if let methodValue = object["method"] {
            guard case .string(let method) = methodValue else {
                return .invalid(id: id, error: .invalidRequest("\"method\" must be a string"))
            }
            let params = object["params"]
            switch params {
            case nil, .object?, .array?: break
            default:
                return .invalid(id: id, error: .invalidRequest("\"params\" must be an object or an array"))
            }
            if let id { return .message(.request(id: id, method: method, params: params)) }
            return .message(.notification(method: method, params: params))
        }

        if let error = object["error"] {
            guard let decoded = try? error.decode(as: JSONRPCError.self) else {
                return .invalid(id: id, error: .invalidRequest("\"error\" must have a numeric code and a message"))
            }
            return .message(.errorResponse(id: id, error: decoded))
        }
        if let result = object["result"] {
            guard let id else {
                return .invalid(id: nil, error: .invalidRequest("a response needs an \"id\""))
            }
            return .message(.response(id: id, result: result))
        }
        return .invalid(id: id, error: .invalidRequest("expected \"method\", \"result\" or \"error\""))
    }

    /// The common case of a reply in one pass: a response whose `result` decodes as `T`. nil for
    /// anything else (an error response, a request, a trailing comma, a result of another
    /// shape), which `parse` then says precisely: this is `parse` (the plain-JSON reader, or
    /// Foundation's for the rest) and `JSONValue.decode(as:)` (`JSONValueDecoder`), so it never
    /// accepts a line they would refuse. It used to decode an envelope with Foundation's
    /// `JSONDecoder` straight from the bytes: 0.17 M instructions a warm reload (callgrind).
    public static func decodeResult<T: Decodable>(_ line: [UInt8], as type: T.Type) -> (id: JSONRPCID, result: T)? {
        guard case .success(let value) = decodeValue(line),
            case .message(.response(let id, let result)) = classify(value),
            let decoded = try? result.decode(as: T.self)
        else { return nil }
        return (id, decoded)
    }

    /// A `timeline/get` reply: `TimelineReplyReader`'s one pass for the common shape (a number
    /// id, plain JSON), `decodeResult` for every other line. The same answer as
    /// `decodeResult(line, as: TimelinePayload.self)` for any line, in a fifth of the
    /// instructions for the common one.
    public static func decodeTimelineResult(_ line: [UInt8]) -> (id: JSONRPCID, result: TimelinePayload)? {
        if let (id, payload) = line.withUnsafeBufferPointer(TimelineReplyReader.read) { return (.number(id), payload) }
        return decodeResult(line, as: TimelinePayload.self)
    }

    /// The message as one NDJSON line, newline included.
    public func encodedLine() throws -> Data {
        var data = try WireCoding.encode(try jsonValue())
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The message as a JSON object, as it goes on the wire alone or in a batch.
    public func jsonValue() throws -> JSONValue {
        var object: [String: JSONValue] = ["jsonrpc": "2.0"]
        switch self {
        case .request(let id, let method, let params):
            object["id"] = try JSONValue(encoding: id)
            object["method"] = .string(method)
            if let params { object["params"] = params }
        case .notification(let method, let params):
            object["method"] = .string(method)
            if let params { object["params"] = params }
        case .response(let id, let result):
            object["id"] = try JSONValue(encoding: id)
            object["result"] = result
        case .errorResponse(let id, let error):
            object["id"] = try id.map { try JSONValue(encoding: $0) } ?? .null
            object["error"] = try JSONValue(encoding: error)
        }
        return .object(object)
    }

    public static func encodingRequest(id: JSONRPCID, method: String, params: some Encodable) throws -> JSONRPCMessage {
        .request(id: id, method: method, params: try JSONValue(encoding: params))
    }

    public static func encodingResponse(id: JSONRPCID, result: some Encodable) throws -> JSONRPCMessage {
        .response(id: id, result: try JSONValue(encoding: result))
    }

    public static func encodingNotification(method: String, params: some Encodable) throws -> JSONRPCMessage {
        .notification(method: method, params: try JSONValue(encoding: params))
    }

    /// A notification as one NDJSON line, newline included, encoded straight from `params`:
    /// the bytes of `encodingNotification(method:params:).encodedLine()` without the round trip
    /// through `JSONValue` (encode, parse, encode again), which cost a `subscribe` stream
    /// about 400,000 instructions a notice.
    public static func notificationLine(method: String, params: some Encodable) throws -> Data {
        var data = try WireCoding.encode(NotificationLine(jsonrpc: "2.0", method: method, params: params))
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// The keys of a notification; with sorted keys they come out as `JSONValue.object` puts them.
private struct NotificationLine<Params: Encodable>: Encodable {
    var jsonrpc: String
    var method: String
    var params: Params
}
