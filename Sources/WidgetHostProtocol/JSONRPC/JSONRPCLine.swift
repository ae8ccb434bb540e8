import Foundation

/// One line of the control channel: a single message or a batch (JSON-RPC 2.0, section 6).
/// Parsing never throws; whatever the bytes, the caller gets messages to run or the exact
/// error to send back. The extension channel has no batches and uses `JSONRPCMessage.parse`.
public enum JSONRPCLine: Sendable, Hashable {
    /// A line holding one message (or one error for the whole line: not JSON, an empty
    /// batch, a batch over the limit).
    case single(JSONRPCMessage.Parsed)
    /// A non-empty array: each member classified on its own, in order. An invalid member
    /// is `.invalid` with its own -32600 and leaves the others untouched.
    case batch([JSONRPCMessage.Parsed])

    /// The batch limit's default (`control.max_batch`): see docs/protocol.md for the reason.
    public static let defaultMaxBatch = 100

    public static func parse(_ line: some Collection<UInt8>, maxBatch: Int = defaultMaxBatch) -> JSONRPCLine {
        let value: JSONValue
        switch JSONRPCMessage.decodeValue(line) {
        case .success(let decoded): value = decoded
        case .failure(let error): return .single(.invalid(id: nil, error: error))
        }
        guard case .array(let members) = value else { return .single(JSONRPCMessage.classify(value)) }
        if members.isEmpty {
            return .single(.invalid(id: nil, error: .invalidRequest("an empty batch; send at least one request in the array")))
        }
        if members.count > maxBatch {
            return .single(.invalid(id: nil, error: .batchTooLarge(members.count, limit: maxBatch)))
        }
        return .batch(members.map(JSONRPCMessage.classify))
    }
}

extension JSONRPCError {
    public static func batchTooLarge(_ count: Int, limit: Int) -> JSONRPCError {
        invalidRequest(
            "a batch of \(count) requests is over the limit of \(limit) (control.max_batch); none was run; "
                + "split it into batches of at most \(limit)")
    }
}
