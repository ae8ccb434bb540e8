import NIOCore

/// A descriptor its owner keeps for its own lifetime (a timer, an extension's stderr pipe),
/// read through `DescriptorChannel` and opened again whenever NIO closes the channel after a
/// failed read, until `close`. The owner keeps and finally closes the descriptor itself.
/// Confined to its event loop (the `@unchecked Sendable`).
final class KeptDescriptorChannel: @unchecked Sendable {
    private let descriptor: CInt
    private let eventLoop: any EventLoop
    /// Runs on the loop with each read (set by the owner once it is made).
    var onRead: (ByteBuffer) -> Void = { _ in }
    private var channel: (any Channel)?
    private var closed = false
    /// Channels opened on the descriptor so far (tests).
    private(set) var opened = 0

    /// Nothing is read before `open`.
    init(_ descriptor: CInt, on eventLoop: any EventLoop) {
        self.descriptor = descriptor
        self.eventLoop = eventLoop
    }

    deinit { channel?.close(promise: nil) }

    /// Starts reading (again, after a close NIO made), unless `close` ran.
    func open() {
        guard !closed else { return }
        opened += 1
        DescriptorChannel.open(
            duplicating: descriptor, on: eventLoop,
            onRead: { [weak self] buffer in self?.onRead(buffer) },
            onClose: { [weak self] in
                // NIO closes the channel after a failed read; open it again on the same descriptor.
                guard let self, !self.closed else { return }
                self.channel = nil
                self.open()
            }
        ).whenSuccess { [weak self] channel in
            guard let self, !self.closed else {
                channel.close(promise: nil)
                return
            }
            self.channel = channel
        }
    }

    /// Stops reading for good.
    func close() {
        closed = true
        channel?.close(promise: nil)
        channel = nil
    }
}
