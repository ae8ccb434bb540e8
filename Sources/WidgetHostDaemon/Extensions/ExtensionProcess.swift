import Foundation
import NIOCore
import NIOPosix
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// What an extension process did, as raw I/O. The supervisor gives it meaning.
enum ExtensionProcessEvent: Sendable {
    /// One line on stdout, parsed.
    case line(JSONRPCMessage.Parsed, byteCount: Int)
    /// stdout went past the line limit; the rest of the line is being discarded.
    case oversizedLine(byteCount: Int)
    case stderr(String)
    /// The process is gone and reaped.
    case exited(ExitStatus)
}

/// How to start one extension bundle's executable.
public struct ExtensionLaunch: Sendable, Hashable {
    public var bundleID: String
    public var executable: String
    public var directory: String
    public var environment: [String: String]

    public init(bundleID: String, executable: String, directory: String, environment: [String: String]) {
        self.bundleID = bundleID
        self.executable = executable
        self.directory = directory
        self.environment = environment
    }
}

/// One running extension process: NDJSON on its stdin and stdout, stderr line by line, its
/// own process group, reaped when it ends. Confined to one event loop; I/O only — the
/// supervisor decides what the lines mean.
final class ExtensionProcess: @unchecked Sendable {
    let launch: ExtensionLaunch
    let pid: pid_t
    let eventLoop: any EventLoop
    private let table: ProcessTable
    private let onEvent: (ExtensionProcessEvent) -> Void
    private var stdin: (any Channel)?
    private var exitStatus: ExitStatus?
    private var stdoutClosed = false
    private var reapTask: RepeatedTask?
    private var killTask: Scheduled<Void>?
    private var reapAttempts = 0

    private init(
        launch: ExtensionLaunch, spawned: SpawnedProcess, table: ProcessTable,
        onEvent: @escaping (ExtensionProcessEvent) -> Void
    ) {
        self.launch = launch
        self.pid = spawned.pid
        self.eventLoop = table.eventLoop
        self.table = table
        self.onEvent = onEvent
    }

    /// Starts the process and wires its pipes into the event loop.
    static func start(
        _ launch: ExtensionLaunch, maxLineBytes: Int, in table: ProcessTable,
        onEvent: @escaping (ExtensionProcessEvent) -> Void
    ) throws(SpawnError) -> ExtensionProcess {
        let eventLoop = table.eventLoop
        eventLoop.preconditionInEventLoop()
        let spawned = try ProcessSpawner.spawn(
            executable: launch.executable, environment: launch.environment)
        let process = ExtensionProcess(launch: launch, spawned: spawned, table: table, onEvent: onEvent)
        table.add(process)
        let stdoutFuture = NIOPipeBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        LineReader(maxLineBytes: maxLineBytes, process: process, stream: .stdout))
                }
            }
            .takingOwnershipOfDescriptors(input: spawned.stdoutRead, output: spawned.stdinWrite)
        stdoutFuture.whenSuccess { channel in process.stdin = channel }
        stdoutFuture.whenFailure { _ in process.stdoutDidClose() }
        _ = NIOPipeBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        LineReader(maxLineBytes: 64 * 1024, process: process, stream: .stderr))
                }
            }
            .takingOwnershipOfDescriptor(input: spawned.stderrRead)
        return process
    }

    var hasExited: Bool { exitStatus != nil }

    /// Writes one JSON-RPC message as a line. Writes never block the loop: NIO queues them.
    func send(_ message: JSONRPCMessage) {
        eventLoop.preconditionInEventLoop()
        guard let data = try? message.encodedLine() else { return }
        if let stdin {
            stdin.writeAndFlush(ByteBuffer(bytes: data), promise: nil)
        } else {
            // The pipe channel is still registering; queue behind it.
            eventLoop.execute { [self] in
                stdin?.writeAndFlush(ByteBuffer(bytes: data), promise: nil)
            }
        }
    }

    /// SIGKILL to the whole process group (like jetsam): children die too.
    func kill() {
        guard exitStatus == nil else { return }
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
        startReaping()
    }

    /// SIGTERM to the group, then SIGKILL after `grace` if it is still there.
    func terminate(grace: TimeAmount = .seconds(2)) {
        guard exitStatus == nil else { return }
        Glibc.kill(-pid, SIGTERM)
        _ = stdin?.close(mode: .output)
        killTask = eventLoop.scheduleTask(in: grace) { [self] in kill() }
        startReaping()
    }

    /// Checks once, without blocking, whether the process has ended (a crashed parent whose
    /// child still holds stdout open would otherwise go unnoticed).
    func pollExit() {
        guard exitStatus == nil else { return }
        var status: CInt = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            didExit(ExitStatus(waitStatus: status))
        }
    }

    fileprivate func deliver(_ event: ExtensionProcessEvent) {
        onEvent(event)
    }

    fileprivate func stdoutDidClose() {
        guard !stdoutClosed else { return }
        stdoutClosed = true
        startReaping()
    }

    private func startReaping() {
        guard reapTask == nil, exitStatus == nil else { return }
        reapTask = eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(5)) { [self] task in
            reapAttempts += 1
            pollExit()
            if exitStatus != nil {
                task.cancel()
            } else if reapAttempts == 400 {
                // Two seconds after stdout closed and still alive: it will not exit by itself.
                Glibc.kill(-pid, SIGKILL)
                Glibc.kill(pid, SIGKILL)
            }
        }
    }

    private func didExit(_ status: ExitStatus) {
        exitStatus = status
        reapTask?.cancel()
        killTask?.cancel()
        // Whatever the process left behind in its group goes with it.
        Glibc.kill(-pid, SIGKILL)
        _ = stdin?.close()
        table.remove(self)
        onEvent(.exited(status))
    }
}

/// Splits a pipe into lines with `LineFramer` and hands them to the process.
private final class LineReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    enum Stream { case stdout, stderr }

    private var framer: LineFramer
    private let process: ExtensionProcess
    private let stream: Stream
    private var reportedOversize = false

    init(maxLineBytes: Int, process: ExtensionProcess, stream: Stream) {
        self.framer = LineFramer(maxLineBytes: maxLineBytes)
        self.process = process
        self.stream = stream
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let frames = buffer.withUnsafeReadableBytes { framer.append($0) }
        for frame in frames { deliver(frame) }
        if stream == .stdout, framer.isDiscarding, !reportedOversize {
            // Report as soon as the limit is passed: a flood may never send its newline.
            reportedOversize = true
            process.deliver(.oversizedLine(byteCount: framer.maxLineBytes + 1))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        let rest = framer.finish()
        if stream == .stderr {
            for frame in rest { deliver(frame) }
        } else if case .line(let bytes)? = rest.first {
            // An unterminated last line is what a process leaves when it dies mid-reply;
            // the exit status says more than the half line would.
            process.deliver(.stderr("[stdout ended with \(bytes.count) bytes of an unfinished line]"))
        }
        if stream == .stdout { process.stdoutDidClose() }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func deliver(_ frame: LineFramer.Frame) {
        switch (stream, frame) {
        case (.stdout, .line(let bytes)):
            process.deliver(.line(JSONRPCMessage.parse(bytes), byteCount: bytes.count))
        case (.stdout, .oversized(let count)):
            if !reportedOversize { process.deliver(.oversizedLine(byteCount: count)) }
            reportedOversize = false
        case (.stderr, .line(let bytes)):
            process.deliver(.stderr(String(decoding: bytes, as: UTF8.self)))
        case (.stderr, .oversized(let count)):
            process.deliver(.stderr("[\(count) bytes on one stderr line, not shown]"))
        }
    }
}
