import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT stop the daemon, SIGHUP reloads it: the signalfd, read on the event
/// loop like every other descriptor of the daemon. A second SIGTERM or SIGINT while stopping
/// is ignored (the drain is already bounded).
///
/// Confined to its event loop: the `@unchecked Sendable`.
final class SignalWatch: @unchecked Sendable {
    private let descriptor: SignalDescriptor
    private let onStop: () -> Void
    private let onReload: () -> Void
    private var channel: (any Channel)?
    private var stopRequested = false

    private init(onStop: @escaping () -> Void, onReload: @escaping () -> Void) throws {
        descriptor = try SignalDescriptor()
        self.onStop = onStop
        self.onReload = onReload
    }

    /// Starts watching; call it on `eventLoop`, where `stop` and `reload` will run.
    static func start(
        on eventLoop: any EventLoop, logger: Logger, stop: @escaping () -> Void, reload: @escaping () -> Void
    ) -> EventLoopFuture<SignalWatch> {
        eventLoop.preconditionInEventLoop()
        let watch: SignalWatch
        do {
            watch = try SignalWatch(onStop: stop, onReload: reload)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return DescriptorChannel.open(
            duplicating: watch.descriptor.descriptor, on: eventLoop,
            onRead: { buffer in watch.received(buffer) },
            onError: { error in
                logger.error("reading signals failed (\(error)); stop widgethostd with SIGKILL")
            }
        ).map { channel in
            watch.channel = channel
            return watch
        }
    }

    /// Stops reading signals; from then on they are ignored.
    func close() {
        channel?.close(promise: nil)
        channel = nil
    }

    private func received(_ buffer: ByteBuffer) {
        for number in buffer.withUnsafeReadableBytes({ SignalDescriptor.signals(in: $0) }) {
            switch number {
            case SIGHUP:
                onReload()
            case SIGTERM, SIGINT:
                guard !stopRequested else { continue }
                stopRequested = true
                onStop()
            default:
                break
            }
        }
    }
}
