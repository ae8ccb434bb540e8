extension JSONRPCMessage {
    /// `{"id":…,"jsonrpc":"2.0","result":…}` and a newline: the bytes of
    /// `.response(id:result: JSONValue(encoding: result)).encodedLine()` without the `JSONValue`
    /// in between (an extension's reply was built as a tree of it, key by key in dictionaries,
    /// then written: two fifths of the SDK's time per request, perf).
    public static func responseLine(id: JSONRPCID, result: some Encodable) throws -> [UInt8] {
        var bytes = try WireCoding.encodeBytes(ResponseLine(id: id, jsonrpc: "2.0", result: result))
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
