import NIOCore
import NIOPosix
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// The stdin and stdout of an extension's next process, made while it has none: the two pipes
/// and the NIO pipe channel on the host's ends, registered with the loop ahead (the supervisor
/// makes one when an extension's process has exited). A cold start then spawns on these pipes
/// and has nothing of its stdio to set up, not even `initialize` to write (the same line for
/// every process, written into the spare's stdin when it is made): the channel made after the
/// clone was ~75 k
/// instructions (NIOPipeBootstrap: the channel, its description string, the registration's
/// futures; callgrind, issue 16), right beside the extension's own start and often on its CPU.
///
/// The pipes are new and no process has had them, so what the channel reads once a process
/// is bound to it (`reader`) is that process's alone, and its stdout's end is that process's
/// end, as with pipes made at the spawn. Unused (the extension removed, the daemon stopping, or
/// the channel closed meanwhile) it is closed whole. Confined to the event loop.
final class SpareStdio: @unchecked Sendable {
    let pipes: SpawnStdio
    /// Hands the channel's reads to the process spawned on the pipes, once there is one.
    let reader = PipeReader(process: nil, stream: .stdout)
    private var channel: (any Channel)?
    private var closed = false
    private var initializeFailed = false

    private init(pipes: SpawnStdio) {
        self.pipes = pipes
    }

    /// Makes the pipes and registers the host's ends on `eventLoop`; nil if the pipes cannot be
    /// made. Must be called on `eventLoop`.
    static func make(on eventLoop: any EventLoop) -> SpareStdio? {
        eventLoop.preconditionInEventLoop()
        guard let pipes = SpawnStdio.make() else { return nil }
        let spare = SpareStdio(pipes: pipes)
        let reader = NIOLoopBound(spare.reader, eventLoop: eventLoop)
        NIOPipeBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(reader.value) }
            }
            .takingOwnershipOfDescriptors(input: pipes.stdoutRead, output: pipes.stdinWrite)
            .whenComplete { result in
                switch result {
                case .success(let channel) where !spare.closed:
                    spare.channel = channel
                    // The process spawned on it finds `initialize` waiting; its start writes no line.
                    channel.writeAndFlush(ByteBuffer(bytes: ExtensionSession.initializeLine)).whenFailure { _ in
                        spare.initializeFailed = true
                    }
                case .success(let channel):
                    channel.close(promise: nil)
                case .failure:
                    // The host's ends are still ours (NIOPipeBootstrap's contract).
                    Glibc.close(pipes.stdinWrite)
                    Glibc.close(pipes.stdoutRead)
                    spare.close()
                }
            }
        return spare
    }

    /// The channel, if the spare can still be spawned on: registered, open, not closed, its
    /// `initialize` written (or still going out: it leaves before anything written later).
    var readyChannel: (any Channel)? {
        guard !closed, !initializeFailed, let channel, channel.isActive else { return nil }
        return channel
    }

    /// Closes the channel (the host's ends) and the child's ends: the spare is not used.
    func close() {
        guard !closed else { return }
        closed = true
        channel?.close(promise: nil)
        channel = nil
        pipes.closeChildEnds()
    }
}

/// Hands what a pipe delivers to its process (none yet: a spare's, until a process is spawned
/// on it).
final class PipeReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    enum Stream { case stdout, stderr }

    var process: ProcessPipes?
    private let stream: Stream

    init(process: ProcessPipes?, stream: Stream) {
        self.process = process
        self.stream = stream
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        process?.received(unwrapInboundIn(data), from: stream)
    }

    func channelInactive(context: ChannelHandlerContext) {
        process?.streamEnded(stream)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
