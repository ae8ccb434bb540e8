extension JSONRPCMessage {
    /// `{"id":…,"jsonrpc":"2.0","result":…}` and a newline: the bytes of
    /// `.response(id:result: JSONValue(encoding: result)).encodedLine()` without the `JSONValue`
    /// in between (an extension's reply was built as a tree of it, key by key in dictionaries,
    /// then written: two fifths of the SDK's time per request, perf).
    public static func responseLine(id: JSONRPCID, result: some Encodable) throws -> [UInt8] {
        var bytes: [UInt8]
        do {
            bytes = try WireEncoder.encodeResponse(id: id, result: result)
        } catch {
            // What `WireEncoder` leaves to Foundation (a URL, `Data`, a NaN, …).
            bytes = Array(try WireCoding.encoder.encode(ResponseLine(id: id, jsonrpc: "2.0", result: result)))
        }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

/// The keys of a response; with sorted keys they come out as `JSONValue.object` puts them.
private struct ResponseLine<Result: Encodable>: Encodable {
    var id: JSONRPCID
    var jsonrpc: String
    var result: Result
}

extension WireEncoder {
    /// The response object's three members as items, without `Encoder` for the envelope.
    static func encodeResponse<T: Encodable>(id: JSONRPCID, result: T) throws -> [UInt8] {
        let node = Node()
        let idItem: Item =
            switch id {
            case .number(let number): .int(Int64(number))
            case .string(let text): .string(text)
            }
        node.object = [("id", idItem), ("jsonrpc", .string("2.0")), ("result", try box(result))]
        var writer = Writer()
        try writer.write(.node(node))
        return writer.bytes
    }
}
