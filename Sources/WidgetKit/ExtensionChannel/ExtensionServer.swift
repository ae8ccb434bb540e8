import Dispatch
import Synchronization
import WidgetHostProtocol

/// The extension side of the extension channel, without the I/O: lines in, reply lines
/// out. `ExtensionMain` wraps it in a stdin/stdout loop; tests call it directly.
///
/// Methods: `initialize`, `placeholder/get`, `snapshot/get`, `timeline/get`, `intent/perform`,
/// `intent/options`, `control/value`, `activity/render` (docs/protocol.md). Every request gets
/// exactly one reply, an error included;
/// notifications and responses get none.
public struct ExtensionServer: Sendable {
    /// The longest line the host may send (1 MiB); a longer one is answered with -32600.
    public static let maxLineBytes = 1 << 20

    let widgets: [WidgetDefinition]
    /// The bundle's Live Activities (`ActivityConfiguration`), answered on `activity/render`.
    let activities: [ActivityRenderer]
    /// The bundle's Control widgets, answered on `control/value` (ExtensionServer+Controls).
    let controls: [ControlDefinition]

    public init(bundle: some WidgetBundle) throws(ConfigurationError) {
        try self.init(
            definitions: bundle.body.body.definitions, activities: bundle.body.body.activityRenderers,
            controls: bundle.body.body.bundledControls)
    }

    public init(widget: some Widget) throws(ConfigurationError) {
        try self.init(
            definitions: widget.body.definitions, activities: widget.body.activityRenderers,
            controls: widget.body.bundledControls)
    }

    init(
        definitions: [WidgetDefinition], activities: [ActivityRenderer] = [], controls: [ControlDefinition] = []
    ) throws(ConfigurationError) {
        if definitions.isEmpty && activities.isEmpty && controls.isEmpty {
            throw ConfigurationError("the extension declares no widgets; list at least one in the WidgetBundle's body")
        }
        var seen: Set<String> = []
        for definition in definitions {
            if definition.kind.isEmpty {
                throw ConfigurationError("a StaticConfiguration has an empty kind; give every widget a unique kind string")
            }
            if !seen.insert(definition.kind).inserted {
                throw ConfigurationError(
                    "the kind \"\(definition.kind)\" is declared twice; every widget in a WidgetBundle needs its own kind")
            }
            if definition.supportedFamilies.isEmpty {
                throw ConfigurationError(
                    "\(definition.kind) supports no families; pass at least one to .supportedFamilies(_:)")
            }
        }
        try Self.validate(controls: controls)
        widgets = definitions
        self.activities = activities
        self.controls = controls
    }

    /// Widgets that cannot be served; the extension prints this and exits with status 1.
    public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// What `initialize` answers.
    public var initializeResult: InitializeResult {
        InitializeResult(
            widgets: widgets.map(\.descriptor), controls: controls.isEmpty ? nil : controls.map(\.descriptor),
            activities: activities.isEmpty ? nil : activities.map(\.attributesType),
            // `ExtensionMain` reads a line, answers it and reads the next: in order, one at a time.
            pipelining: true)
    }

    // MARK: Lines and frames

    /// Answers one framed line; `reply` gets the line to write (newline included), or nil.
    public func handle(frame: LineFramer.Frame, reply: @escaping @Sendable ([UInt8]?) -> Void) {
        switch frame {
        case .line(let line):
            handle(line: line, reply: reply)
        case .oversized:
            reply(Self.encode(.errorResponse(id: nil, error: .lineTooLong(limit: Self.maxLineBytes))))
        }
    }

    public func handle(line: some Collection<UInt8>, reply: @escaping @Sendable ([UInt8]?) -> Void) {
        outcome(of: JSONRPCMessage.parse(line)) { reply($0.line) }
    }

    /// Blocks the calling thread until the provider has answered. For the stdin loop's
    /// own thread; never call it from a task (it would hold a cooperative thread).
    public func handle(frame: LineFramer.Frame) -> [UInt8]? {
        Self.wait { handle(frame: frame, reply: $0) }
    }

    /// Blocking; see `handle(frame:)`.
    public func handle(line: some Collection<UInt8>) -> [UInt8]? {
        Self.wait { handle(line: line, reply: $0) }
    }

    public func handle(line: some Collection<UInt8>) async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            handle(line: line) { continuation.resume(returning: $0) }
        }
    }

    // MARK: Messages

    /// Answers one parsed line. `reply` is called exactly once: with the response or error
    /// response to a request or to an invalid line, or with nil for anything that gets no
    /// reply (notifications, responses). A provider that calls its completion handler
    /// twice is logged and its second answer dropped.
    public func respond(to parsed: JSONRPCMessage.Parsed, reply: @escaping @Sendable (JSONRPCMessage?) -> Void) {
        outcome(of: parsed) { reply($0.message) }
    }

    /// `respond(to:reply:)` before the reply is either a message or a line.
    private func outcome(of parsed: JSONRPCMessage.Parsed, reply: @escaping @Sendable (Outcome) -> Void) {
        switch parsed {
        case .invalid(let id, let error):
            reply(.error(id: id, error))
        case .message(.request(let id, let method, let params)):
            let once = ReplyOnce(method: method, reply)
            answer(method: method, params: params) { result in
                switch result {
                case .success(let answer): once.send(.answer(id: id, answer))
                case .failure(let error): once.send(.error(id: id, error))
                }
            }
        case .message(.notification), .message(.response), .message(.errorResponse):
            reply(.none)
        }
    }

    public func respond(to parsed: JSONRPCMessage.Parsed) async -> JSONRPCMessage? {
        await withCheckedContinuation { continuation in
            respond(to: parsed) { continuation.resume(returning: $0) }
        }
    }

    private func answer(method: String, params: JSONValue?, reply: @escaping @Sendable (Answered) -> Void) {
        guard let known = ExtensionMethod(rawValue: method) else {
            reply(.failure(.methodNotFound(method, known: ExtensionMethod.allCases.map(\.rawValue))))
            return
        }
        switch known {
        case .initialize:
            reply(Self.wire(.success(initializeResult)))
            return
        case .intentPerform:
            performIntent(params, reply: reply)
            return
        case .intentOptions:
            intentOptions(params, reply: reply)
            return
        case .controlValue:
            answerControlValue(params, reply: reply)
            return
        case .activityRender:
            reply(renderActivity(params))
            return
        case .placeholder, .snapshot, .timeline:
            break
        }
        let request: ProviderRequest
        do {
            request = try ProviderRequest.parse(known, params: params, widgets: widgets)
        } catch {
            reply(.failure(error))
            return
        }
        let definition = request.definition
        switch known {
        case .placeholder:
            reply(Self.wire(Result { try definition.placeholder(request.context) }))
        case .snapshot:
            definition.snapshot(request.context, request.configuration) { reply(Self.wire($0)) }
        case .timeline:
            definition.timeline(request.context, request.configuration) { reply(Self.wire($0)) }
        case .initialize, .intentPerform, .intentOptions, .controlValue, .activityRender:
            break
        }
    }

    /// `activity/render`: the views of the `ActivityConfiguration` for the params' attributes type.
    private func renderActivity(_ params: JSONValue?) -> Answered {
        let request: ActivityRenderParams
        do {
            request = try (params ?? .null).decode(as: ActivityRenderParams.self)
        } catch {
            return .failure(
                .invalidParams("activity/render needs activityId, attributesType, attributes and state: \(error)"))
        }
        guard let renderer = activities.first(where: { $0.attributesType == request.attributesType }) else {
            let known = activities.map(\.attributesType).joined(separator: ", ")
            return .failure(
                .invalidParams(
                    "no ActivityConfiguration for \"\(request.attributesType)\" in this extension"
                        + (known.isEmpty ? "" : " (it has: \(known))")))
        }
        do {
            return Self.wire(.success(try renderer.answer(request)))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Encoding

    /// A request's result: encoded once, straight into its reply line (`handle(line:)`), or
    /// as a `JSONValue` for a reply message (`respond(to:)`).
    struct Answer: Sendable {
        let payload: any Encodable & Sendable
    }

    typealias Answered = Result<Answer, JSONRPCError>

    /// A payload as a response's result. A provider that failed to make one (content JSON
    /// cannot hold, a NaN) is reported as -32603 with the reason; a JSON-RPC error (a
    /// configuration that does not fit the intent) is sent as it is.
    static func wire<Payload: Encodable & Sendable>(_ payload: Result<Payload, any Error>) -> Answered {
        switch payload {
        case .success(let value): .success(Answer(payload: value))
        case .failure(let error as JSONRPCError): .failure(error)
        case .failure(let error): .failure(internalError(error))
        }
    }

    static func internalError(_ error: any Error) -> JSONRPCError {
        JSONRPCError(code: JSONRPCError.internalErrorCode, message: "Internal error: \(error)")
    }

    /// What one line gets: nothing, an error, or a request's answer.
    enum Outcome: Sendable {
        case none
        case error(id: JSONRPCID?, JSONRPCError)
        case answer(id: JSONRPCID, Answer)

        /// The reply line, newline included. A result JSON cannot hold (a NaN) is -32603 with
        /// the reason, so the request still gets its one reply.
        var line: [UInt8]? {
            switch self {
            case .none: return nil
            case .error(let id, let error): return ExtensionServer.encode(.errorResponse(id: id, error: error))
            case .answer(let id, let answer):
                do {
                    return try JSONRPCMessage.responseLine(id: id, result: answer.payload)
                } catch {
                    return ExtensionServer.encode(.errorResponse(id: id, error: ExtensionServer.internalError(error)))
                }
            }
        }

        var message: JSONRPCMessage? {
            switch self {
            case .none: return nil
            case .error(let id, let error): return .errorResponse(id: id, error: error)
            case .answer(let id, let answer):
                do {
                    return .response(id: id, result: try JSONValue(encoding: answer.payload))
                } catch {
                    return .errorResponse(id: id, error: ExtensionServer.internalError(error))
                }
            }
        }
    }

    private static func encode(_ message: JSONRPCMessage) -> [UInt8] {
        do {
            return Array(try message.encodedLine())
        } catch {
            // Only a value JSON cannot hold gets here; the request still gets its one reply.
            let id: JSONRPCID? =
                switch message {
                case .request(let id, _, _), .response(let id, _): id
                case .errorResponse(let id, _): id
                case .notification: nil
                }
            let fallback = JSONRPCMessage.errorResponse(id: id, error: internalError(error))
            return Array((try? fallback.encodedLine()) ?? Data("\n".utf8))
        }
    }

    /// On the stdin loop's thread, the async work the answer needs runs here while it waits
    /// (`ChannelExecutor`); elsewhere the thread just waits.
    private static func wait<Value: Sendable>(_ start: (@escaping @Sendable (Value) -> Void) -> Void) -> Value {
        guard let executor = ChannelExecutor.preferred else {
            let slot = Slot<Value>()
            start { slot.fill($0) }
            return slot.take()
        }
        let answer = Mutex<Value?>(nil)
        start { value in
            answer.withLock { if $0 == nil { $0 = value } }
            executor.wake()
        }
        return executor.run { answer.withLock { $0 } }
    }
}
