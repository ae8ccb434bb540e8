import NIOCore
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// An extension's stderr: one pipe kept between its processes, as its sampler's timer is
/// (`SamplerTimer`). Each process gets the write end as its stderr; the read end is read on
/// the loop through one channel, opened right after the extension's first spawn
/// (`DescriptorChannel`, `listen`).
/// A pipe channel per process cost ~67 k instructions of every cold start (NIO's channel, its
/// registration and its futures; callgrind, issue 16), right after the clone, beside the
/// extension's own start.
///
/// What is read goes to the latest process started (`owner`), whose session frames it into
/// lines for the log, as its own pipe's channel did: read as it comes, so a flood never
/// blocks the extension for long, and never more than a line (64 KiB) held. A process's exit
/// first takes what the pipe still holds (`drain`), so that its last lines are its own and
/// not the next process's. What a process writes after the next one started (one still in
/// its terminate's grace; a child that left its group, which the sandbox's seccomp filter
/// forbids) is logged as the next one's: the same extension's log, no rule reads stderr.
/// Confined to the event loop.
final class ExtensionStderr: @unchecked Sendable {
    let eventLoop: any EventLoop
    /// The child's stderr: close-on-exec here, its descriptor 2 there (`ProcessSpawner`).
    let writeEnd: CInt
    /// Non-blocking (the write end is not: an extension that writes faster than the daemon
    /// reads waits, as it did on a pipe of its own).
    private let readEnd: CInt
    /// The read end on the loop, from `listen` until `close`.
    private let reader: KeptDescriptorChannel
    private var closed = false
    private var listening = false
    /// The process that gets what is read: the one started last.
    var owner: ProcessPipes?
    /// Channels opened on the read end (tests: one per extension, not one per process).
    var channelsOpened: Int { reader.opened }

    /// Must be called on `eventLoop`.
    init(on eventLoop: any EventLoop) throws {
        eventLoop.preconditionInEventLoop()
        self.eventLoop = eventLoop
        guard let ends = CloseOnExecPipe.make() else { throw IOError(errnoCode: errno, reason: "pipe2") }
        let flags = fcntl(ends[0], F_GETFL)
        guard flags >= 0, fcntl(ends[0], F_SETFL, flags | O_NONBLOCK) == 0 else {
            let saved = errno
            Glibc.close(ends[0])
            Glibc.close(ends[1])
            throw IOError(errnoCode: saved, reason: "fcntl")
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        reader = KeptDescriptorChannel(ends[0], on: eventLoop)
        reader.onRead = { [weak self] buffer in self?.owner?.receivedStderr(buffer) }
    }

    deinit {
        reader.close()
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    /// Hands `body` what the pipe holds now, up to 64 KiB (a process's exit: its last lines).
    func drain(_ body: (UnsafeRawBufferPointer) -> Void) {
        guard !closed else { return }
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) { buffer in
            for _ in 0..<16 {
                let count = read(readEnd, buffer.baseAddress, buffer.count)
                guard count > 0 else { return }
                body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }

    /// Starts reading the pipe, once (the first process's start, after its spawn: off its path).
    func listen() {
        guard !listening, !closed else { return }
        listening = true
        reader.open()
    }

    /// Closes the read end's channel and lets go of the owner (the extension is gone, or the
    /// daemon stops).
    func close() {
        closed = true
        owner = nil
        reader.close()
    }
}
