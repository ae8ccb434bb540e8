import NIOCore

/// `control.max_connections` as accept backpressure, on the listening channel: while that
/// many connections are open it stops asking the channel to accept, and asks again when one
/// closes. A client past the limit waits in the kernel's listen backlog, connected, with its
/// request sent, and is served as soon as a slot frees; none is refused.
///
/// The listening channel accepts one connection per read (`maxMessagesPerRead` 1), so the
/// count is checked before each accept.
final class ConnectionLimit: ChannelDuplexHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    typealias OutboundIn = NIOAny

    private let limit: Int
    private(set) var open = 0
    /// A read (an accept) asked for while at the limit, passed on once a connection closes.
    private var heldRead = false

    init(limit: Int) {
        self.limit = limit
    }

    func read(context: ChannelHandlerContext) {
        if open < limit {
            context.read()
        } else {
            heldRead = true
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let connection = unwrapInboundIn(data)
        open += 1
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        connection.closeFuture.hop(to: context.eventLoop).whenComplete { _ in
            let (limit, context) = bound.value
            limit.closed(context: context)
        }
        context.fireChannelRead(data)
    }

    private func closed(context: ChannelHandlerContext) {
        open -= 1
        if heldRead, open < limit {
            heldRead = false
            context.read()
        }
    }
}
