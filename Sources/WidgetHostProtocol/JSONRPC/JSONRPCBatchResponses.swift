import Foundation

/// Collects a batch's responses, which may arrive out of order (a member answered later,
/// such as `rescan`), and writes them as one array in the members' order once all are in.
/// Members that are notifications take no slot; a batch with no slots is answered with
/// nothing at all (JSON-RPC 2.0, section 6).
public struct JSONRPCBatchResponses: Sendable, Hashable {
    private var slots: [JSONRPCMessage?]

    /// `expecting`: how many members are answered (requests and invalid members).
    public init(expecting count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    public var count: Int { slots.count }

    /// True once every slot holds its response (at once for a batch of notifications).
    public var isComplete: Bool { slots.allSatisfy { $0 != nil } }

    /// Records slot `index`'s response; a second answer for a slot is a programming error.
    public mutating func answer(_ index: Int, with response: JSONRPCMessage) {
        precondition(slots[index] == nil, "batch slot \(index) answered twice")
        slots[index] = response
    }

    /// The array as one NDJSON line, newline included; nil when there is nothing to send.
    /// Only call it once `isComplete`.
    public func encodedLine() throws -> Data? {
        precondition(isComplete, "a batch is written once every member has answered")
        guard !slots.isEmpty else { return nil }
        var data = try WireCoding.encode(JSONValue.array(slots.compactMap { $0 }.map { try $0.jsonValue() }))
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
