/// A JSON-RPC error object. The standard codes are the wire form of our typed errors;
/// the message is a sentence a person can act on.
public struct JSONRPCError: Error, Sendable, Hashable, Codable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603
    /// Host-defined: the request was well formed but the host refuses it (unknown kind,
    /// unknown widget, ambiguous kind, not allowed).
    public static let requestRefusedCode = -32000
    /// Host-defined: the caller lacks the privilege for an admin method.
    public static let permissionDeniedCode = -32001

    public static func parseError(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: parseErrorCode, message: "Parse error: \(detail)")
    }

    public static func invalidRequest(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: invalidRequestCode, message: "Invalid request: \(detail)")
    }

    public static func methodNotFound(_ method: String, known: [String]) -> JSONRPCError {
        JSONRPCError(
            code: methodNotFoundCode,
            message: "Method not found: \"\(method)\"; known methods are \(known.joined(separator: ", "))")
    }

    public static func invalidParams(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: invalidParamsCode, message: "Invalid params: \(detail)")
    }

    public static func lineTooLong(limit: Int) -> JSONRPCError {
        JSONRPCError(
            code: invalidRequestCode,
            message: "Invalid request: line longer than \(limit) bytes was discarded; send one JSON object per line")
    }
}
