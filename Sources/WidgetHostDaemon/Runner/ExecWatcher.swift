import NIOCore

/// Reads a shim's exec report on the event loop (`ProcessSpawner.start`): its write end
/// closes at the extension's `execve` (close-on-exec) or when the shim exits, so end of file
/// comes within a millisecond of the spawn, and what was written before it (nothing, or why
/// the extension did not start) goes to `ended`, once.
final class ExecWatcher: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var bytes: [UInt8] = []
    private var ended: (([UInt8]) -> Void)?

    init(ended: @escaping ([UInt8]) -> Void) {
        self.ended = ended
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A report is one short line; anything past 4 KiB is not the shim's.
        var buffer = unwrapInboundIn(data)
        if bytes.count < 4096, let read = buffer.readBytes(length: min(buffer.readableBytes, 4096 - bytes.count)) {
            bytes += read
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func finish() {
        let ended = self.ended
        self.ended = nil
        ended?(bytes)
    }
}
