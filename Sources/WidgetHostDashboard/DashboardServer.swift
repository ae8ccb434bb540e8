import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import WidgetHostProtocol

/// The daemon's HTTP server for the dashboard and `/metrics`: HummingbirdCore's HTTP/1.1
/// server on the daemon's own event loop (its tasks too, through `EventLoopExecutor`), so
/// nothing runs beside the core. `start()` binds and returns the URL with the token.
public final class DashboardServer: @unchecked Sendable {
    public let host: String
    public let token: DashboardToken
    let source: any DashboardSource
    let logger: Logger
    let live: LiveUpdates
    let metrics: HostMetrics
    private let requestedPort: Int
    private let executor: EventLoopExecutor
    // Set on start; read after.
    private var server: Server<HTTP1Channel>?
    private var runTask: Task<Void, any Error>?
    public private(set) var port: Int?
    /// Connections served at once (pages, their event streams, scrapes); more wait in the backlog.
    static let maxConnections = 64

    public init(
        host: String, port: Int, source: any DashboardSource, token: DashboardToken = .random(), logger: Logger,
        keepAlive: TimeAmount = .seconds(30)
    ) {
        self.host = host
        self.requestedPort = port
        self.source = source
        self.token = token
        self.logger = logger
        self.executor = EventLoopExecutor(eventLoop: source.eventLoop)
        self.metrics = HostMetrics()
        self.live = LiveUpdates(source: source, metrics: metrics, keepAlive: keepAlive)
    }

    /// The address as a URL host: `[::1]` for IPv6.
    var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    /// The page's URL with the token, once listening.
    public var url: String? {
        port.map { "http://\(urlHost):\($0)/?token=\(token.value)" }
    }

    /// The live updates' open `/events` streams and the timers they keep scheduled, read on
    /// the host's loop: a page left open costs one keep-alive timer, however many are open.
    public func liveTimers() -> EventLoopFuture<(streams: Int, timers: Int)> {
        let live = self.live
        return live.eventLoop.submit { (live.openStreams, live.scheduledTimers) }
    }

    /// Subscribes to the host's notices and listens. Call from outside the event loop.
    public func start() async throws -> String {
        let loop = source.eventLoop
        let responder = DashboardResponder(server: self)
        let bound = loop.makePromise(of: Int.self)
        let server = Server(
            childChannelSetup: HTTP1Channel(
                responder: { request, writer, _ in try await responder.respond(to: request, writer: writer) },
                configuration: .init(idleTimeout: .seconds(300))),
            configuration: ServerConfiguration(
                address: .hostname(host, port: requestedPort), serverName: "widgethostd",
                availableConnectionsDelegate: MaximumAvailableConnections(Self.maxConnections)),
            onServerRunning: { channel in bound.succeed(channel.localAddress?.port ?? 0) },
            eventLoopGroup: loop,
            logger: logger)
        self.server = server
        try await loop.submit { self.live.start() }.get()
        let task = Task(executorPreference: executor) {
            do {
                try await server.run()
            } catch {
                bound.fail(error)
                throw error
            }
        }
        runTask = task
        do {
            port = try await bound.futureResult.get()
        } catch {
            try? await loop.submit { self.live.stop() }.get()
            throw DashboardError.bind("\(urlHost):\(requestedPort)", "\(error)")
        }
        logger.notice("dashboard listening on http://\(urlHost):\(port ?? 0)/")
        return url ?? ""
    }

    /// Ends the live streams, then stops accepting and closes every connection.
    public func stop() async {
        try? await source.eventLoop.submit { self.live.stop() }.get()
        if let server {
            try? await server.shutdownGracefully()
        }
        _ = await runTask?.result
    }

    /// `start()` for synchronous code (not on `eventLoop`): `.wait()` on the future.
    public func start(on eventLoop: any EventLoop) -> EventLoopFuture<String> {
        let promise = eventLoop.makePromise(of: String.self)
        Task(executorPreference: executor) {
            do {
                promise.succeed(try await self.start())
            } catch {
                promise.fail(error)
            }
        }
        return promise.futureResult
    }

    /// `stop()` for the daemon's event-loop code: a future on `eventLoop`.
    public func stop(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        Task(executorPreference: executor) {
            await self.stop()
            promise.succeed(())
        }
        return promise.futureResult
    }

    /// A control request took `seconds` (the control channel's latency histogram).
    public func recordControlRequest(method: String, seconds: Double) {
        metrics.recordControlRequest(method: method, seconds: seconds)
    }
}
