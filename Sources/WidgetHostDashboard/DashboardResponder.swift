import Foundation
import HTTPTypes
import HummingbirdCore
import NIOCore
import WidgetHostProtocol

/// The dashboard's routes. Every one needs the token (a bearer header, the cookie, or
/// `?token=` once, which sets the cookie and redirects to the same page without it); a
/// write action needs the bearer header itself.
///
/// | route | what |
/// |---|---|
/// | `GET /` | the home screen and lock screen, live |
/// | `GET /widgets/ID` | one widget: timeline with a scrubber, reload history |
/// | `GET /events` | server-sent events: `card` (a widget's new card), `removed` |
/// | `GET /metrics` | Prometheus text format |
/// | `GET /api/status` | `widgethost status --json`'s result |
/// | `POST /api/METHOD` | `reloadTimelines`, `reloadAllTimelines`, `recordView`, `addWidget`, `removeWidget`, `rescan`: the control method with the JSON body as params |
/// | `POST /api/widgets/ID/tap` | `{"button": "b1"}`: a tap on a Button(intent:) or Toggle(isOn:intent:), as `widgethost tap ID b1`; answered when the intent has run |
struct DashboardResponder: Sendable {
    let server: DashboardServer

    /// The control methods the page may call.
    static let actions: Set<ControlMethod> = [
        .reloadTimelines, .reloadAllTimelines, .recordView, .addWidget, .removeWidget, .rescan, .tap,
    ]
    static let maxBodyBytes = 64 * 1024

    var source: any DashboardSource { server.source }
    var eventLoop: any EventLoop { server.source.eventLoop }

    func respond(to request: Request, writer: consuming ResponseWriter) async throws {
        var request = request
        let path = request.uri.path
        guard let proof = server.token.proof(headers: request.headers, query: request.uri.query) else {
            try await writer.send(
                head(.unauthorized, type: "text/plain; charset=utf-8"),
                body: body(
                    "The dashboard needs its token: open the URL widgethostd wrote to dashboard.url in its state "
                        + "directory (make run prints it), or send Authorization: Bearer TOKEN.\n"))
            return
        }
        if proof == .query, request.method == .get {
            var fields = HTTPFields()
            fields[.location] = path
            fields[.setCookie] = server.token.cookie
            fields[.cacheControl] = "no-store"
            fields[.contentLength] = "0"
            try await writer.writeResponse(HTTPResponse(status: .seeOther, headerFields: fields))
            return
        }
        switch (request.method, path) {
        case (.get, "/"):
            let page = try await eventLoop.submit { [server] in
                DashboardPage.home(server.source.dashboardSnapshot(), token: server.token)
            }.get()
            try await writer.send(head(.ok, type: "text/html; charset=utf-8"), body: body(page))
        case (.get, "/events"):
            let stream = try await eventLoop.submit { [server] in server.live.open() }.get()
            var fields = HTTPFields()
            fields[.contentType] = "text/event-stream"
            fields[.cacheControl] = "no-store"
            var body = try await writer.writeHead(HTTPResponse(status: .ok, headerFields: fields))
            for await chunk in stream {
                try await body.write(chunk)
            }
            try await body.finish(nil)
        case (.get, "/metrics"):
            let text = try await eventLoop.submit { [server] in
                server.metrics.exposition(server.source.dashboardSnapshot())
            }.get()
            try await writer.send(head(.ok, type: "text/plain; version=0.0.4; charset=utf-8"), body: body(text))
        case (.get, "/api/status"):
            let data = try await eventLoop.submit { [server] in
                let snapshot = server.source.dashboardSnapshot()
                return try WireCoding.encode(StatusResult(now: snapshot.now, widgets: snapshot.widgets))
            }.get()
            try await writer.send(head(.ok, type: "application/json"), body: body(data))
        case (.get, _) where path.hasPrefix("/widgets/"):
            let id = String(path.dropFirst("/widgets/".count)).removingPercentEncoding ?? ""
            let page = try await eventLoop.submit { [server] () -> String? in
                let snapshot = server.source.dashboardSnapshot()
                guard let status = snapshot.widgets.first(where: { $0.widget.id == id }) else { return nil }
                return DashboardPage.detail(status, snapshot, history: server.live.history[id] ?? [], token: server.token)
            }.get()
            guard let page else {
                try await writer.send(
                    head(.notFound, type: "text/plain; charset=utf-8"),
                    body: body("There is no widget \(id.debugDescription); see / for the widgets there are.\n"))
                return
            }
            try await writer.send(head(.ok, type: "text/html; charset=utf-8"), body: body(page))
        case (.post, _) where path.hasPrefix("/api/"):
            guard proof == .bearer else {
                try await writer.send(
                    head(.forbidden, type: "application/json"),
                    body: body(errorJSON(JSONRPCError.permissionDeniedCode, "write actions need Authorization: Bearer TOKEN (a cookie alone never writes)")))
                return
            }
            let name = String(path.dropFirst("/api/".count))
            let tappedWidget = TapRoute.widget(in: name)
            guard let method = tappedWidget != nil ? .tap : ControlMethod(rawValue: name), Self.actions.contains(method) else {
                try await writer.send(
                    head(.notFound, type: "application/json"),
                    body: body(errorJSON(JSONRPCError.methodNotFoundCode, "no action \(name.debugDescription); the actions are \(Self.actions.map(\.rawValue).sorted().joined(separator: ", "))")))
                return
            }
            let data = try await request.collectBody(upTo: Self.maxBodyBytes)
            var params: JSONValue?
            if data.readableBytes == 0 {
                params = nil
            } else {
                do {
                    params = try WireCoding.decode(JSONValue.self, from: Data(data.readableBytesView))
                } catch {
                    try await writer.send(
                        head(.badRequest, type: "application/json"),
                        body: body(errorJSON(-32700, "the body is not JSON (\(error)); send the control method's params as a JSON object")))
                    return
                }
            }
            if let tappedWidget {
                // The widget comes from the path; the body names the button (or the intent).
                guard let tap = TapRoute.params(widget: tappedWidget, body: params) else {
                    try await writer.send(
                        head(.badRequest, type: "application/json"),
                        body: body(errorJSON(JSONRPCError.invalidParamsCode, TapRoute.bodyHelp)))
                    return
                }
                params = tap
            }
            let outcome = try await eventLoop.flatSubmit { [source, params] in source.call(method: method, params: params) }.get()
            let reply: JSONValue
            let status: HTTPResponse.Status
            switch outcome {
            case .result(let result):
                reply = .object(["result": result])
                status = .ok
            case .error(let error):
                reply = .object(["error": .object(["code": .integer(error.code), "message": .string(error.message)])])
                status = error.code == JSONRPCError.permissionDeniedCode ? .forbidden : .unprocessableContent
            }
            try await writer.send(head(status, type: "application/json"), body: body(try WireCoding.encode(reply)))
        default:
            try await writer.send(
                head(.notFound, type: "text/plain; charset=utf-8"),
                body: body("Nothing at \(path.debugDescription); the dashboard is at /.\n"))
        }
    }

    private func head(_ status: HTTPResponse.Status, type: String) -> HTTPResponse {
        var fields = HTTPFields()
        fields[.contentType] = type
        fields[.cacheControl] = "no-store"
        fields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        fields[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return HTTPResponse(status: status, headerFields: fields)
    }

    private func body(_ text: String) -> Body {
        Body(buffer: ByteBuffer(string: text))
    }

    private func body(_ data: Data) -> Body {
        Body(buffer: ByteBuffer(bytes: data))
    }

    /// A whole body, written with its length.
    struct Body {
        var buffer: ByteBuffer
    }

    private func errorJSON(_ code: Int, _ message: String) -> String {
        let value = JSONValue.object(["error": .object(["code": .integer(code), "message": .string(message)])])
        return (try? WireCoding.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

extension ResponseWriter {
    /// The head with `Content-Length`, then the body, in one write.
    consuming func send(_ head: HTTPResponse, body: DashboardResponder.Body) async throws {
        var head = head
        head.headerFields[.contentLength] = String(body.buffer.readableBytes)
        try await write(response: head, body: ResponseBody(byteBuffer: body.buffer))
    }
}
