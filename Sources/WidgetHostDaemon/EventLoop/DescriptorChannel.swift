import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// A kernel descriptor that is not a socket — the signalfd, the clock-set timerfd, the
/// time-zone inotify instance, an extension's kept stderr pipe — read on the event loop through NIO's own selector, so that
/// the daemon has one event mechanism and no thread of its own for them.
///
/// A duplicate of the descriptor becomes the input of an NIO pipe channel
/// (`NIOPipeBootstrap` takes any descriptor that is not a regular file, directory, link or
/// block device; these are anonymous inodes). The owner keeps the original, so a channel
/// that NIO closes after a failed read can be opened again on the same descriptor.
///
/// - Reads go into a fixed 4 KiB buffer: each of these descriptors answers a read shorter
///   than one record (128 bytes for a signal, 8 for a timer, up to 272 for an inotify event)
///   with EINVAL, which NIO takes for a bug and traps on.
/// - A failed read reaches `onError` (a timerfd's ECANCELED after a clock set), and NIO then
///   closes the channel: `onClose` runs, and the owner decides whether to open it again.
enum DescriptorChannel {
    static let readSize = 4096

    /// Must be called on `eventLoop`; the handlers run there.
    static func open(
        duplicating descriptor: CInt, on eventLoop: any EventLoop, onRead: @escaping (ByteBuffer) -> Void,
        onError: @escaping (any Error) -> Void = { _ in }, onClose: @escaping () -> Void = {}
    ) -> EventLoopFuture<any Channel> {
        eventLoop.preconditionInEventLoop()
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return eventLoop.makeFailedFuture(IOError(errnoCode: errno, reason: "F_DUPFD_CLOEXEC")) }
        let handler = NIOLoopBound(
            DescriptorReader(onRead: onRead, onError: onError, onClose: onClose), eventLoop: eventLoop)
        return NIOPipeBootstrap(group: eventLoop)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: readSize))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler.value) }
            }
            .takingOwnershipOfDescriptor(input: copy)
            .flatMapErrorThrowing { error in
                // On failure the descriptor is still ours (NIOPipeBootstrap's contract).
                close(copy)
                throw error
            }
    }
}

/// Hands each read and the first error to its owner, and tells it when the channel closes.
private final class DescriptorReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let onRead: (ByteBuffer) -> Void
    private let onError: (any Error) -> Void
    private let onClose: () -> Void

    init(onRead: @escaping (ByteBuffer) -> Void, onError: @escaping (any Error) -> Void, onClose: @escaping () -> Void) {
        self.onRead = onRead
        self.onError = onError
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onRead(unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        onError(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
    }
}
