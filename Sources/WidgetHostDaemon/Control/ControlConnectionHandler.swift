import Foundation
import NIOCore
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// One client connection: lines in, JSON-RPC replies out; after `subscribe`, a stream of
/// `event` notifications. Bad input gets the standard JSON-RPC error and the connection stays.
final class ControlConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let server: ControlServer
    private var framer: LineFramer
    private var peer: Peer?
    private var subscription: Int?

    init(server: ControlServer) {
        self.server = server
        self.framer = LineFramer(maxLineBytes: server.settings.maxLineBytes)
    }

    func channelActive(context: ChannelHandlerContext) {
        // On the channel's own loop the option is read synchronously, before any request.
        Self.peerCredentials(of: context.channel)?.assumeIsolated().whenSuccess { [weak self] peer in self?.peer = peer }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let subscription { server.runtime.unsubscribe(subscription) }
        subscription = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let frames = buffer.withUnsafeReadableBytes { framer.append($0) }
        for frame in frames {
            switch frame {
            case .line(let bytes): handleLine(bytes, context: context)
            case .oversized:
                write(.errorResponse(id: nil, error: .lineTooLong(limit: server.settings.maxLineBytes)), context: context)
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Idle connections are closed; a subscriber is never idle by our choice, only by its own.
        if event is IdleStateHandler.IdleStateEvent, subscription == nil {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A client that sends requests without reading the replies stops being read until it
    /// catches up, so its replies never pile up without bound.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.channel.setOption(.autoRead, value: context.channel.isWritable).whenComplete { _ in }
        if context.channel.isWritable { context.read() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func handleLine(_ bytes: [UInt8], context: ChannelHandlerContext) {
        switch JSONRPCMessage.parse(bytes) {
        case .invalid(let id, let error):
            write(.errorResponse(id: id, error: error), context: context)
        case .message(.request(let id, let method, let params)):
            let dispatcher = ControlDispatcher(runtime: server.runtime, settings: server.settings, rescan: server.rescan)
            let started = NIODeadline.now()
            let runtime = server.runtime
            let observe: @Sendable () -> Void = {
                runtime.controlRequestObserved?(method, Double((NIODeadline.now() - started).nanoseconds) / 1e9)
            }
            let outcome = dispatcher.dispatch(method: method, params: params, peer: peer)
            if case .later(let future) = outcome {
                future.whenComplete { _ in observe() }
            } else {
                observe()
            }
            switch outcome {
            case .result(let result): write(.response(id: id, result: result), context: context)
            case .error(let error): write(.errorResponse(id: id, error: error), context: context)
            case .subscribed(let result):
                write(.response(id: id, result: result), context: context)
                subscribe(context: context)
            case .later(let future):
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                future.whenComplete { result in
                    let (handler, context) = bound.value
                    switch result {
                    case .success(let value): handler.write(.response(id: id, result: value), context: context)
                    case .failure(let error):
                        handler.write(
                            .errorResponse(
                                id: id, error: JSONRPCError(code: JSONRPCError.internalErrorCode, message: "\(error)")),
                            context: context)
                    }
                }
            }
        case .message(.notification):
            // Notifications get no reply (JSON-RPC 2.0); none are defined for clients.
            break
        case .message(.response), .message(.errorResponse):
            write(
                .errorResponse(id: nil, error: .invalidRequest("clients send requests; responses are not expected")),
                context: context)
        }
    }

    private func subscribe(context: ChannelHandlerContext) {
        guard subscription == nil else { return }
        let channel = context.channel
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        subscription = server.runtime.subscribe { [weak self] notice in
            guard let self else { return }
            // A subscriber that stops reading is dropped rather than buffered without bound.
            guard channel.isWritable else {
                channel.close(promise: nil)
                return
            }
            guard let message = try? JSONRPCMessage.encodingNotification(method: ControlMethod.eventNotification, params: notice)
            else { return }
            self.write(message, context: loopBound.value)
        }
    }

    private func write(_ message: JSONRPCMessage, context: ChannelHandlerContext) {
        guard let data = try? message.encodedLine() else { return }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: data)), promise: nil)
    }

    /// `SO_PEERCRED`. Glibc's `struct ucred` needs _GNU_SOURCE, so its layout is spelled here.
    private struct PeerCredentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    static func peerCredentials(of channel: any Channel) -> EventLoopFuture<Peer>? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future.map { Peer(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    }
}
