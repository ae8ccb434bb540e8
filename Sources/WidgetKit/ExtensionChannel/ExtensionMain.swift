// @preconcurrency: `stdout` is a C global; it is touched once, before any other thread starts.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif
import Dispatch
import WidgetHostProtocol

/// An extension's `main` (what `Widget.main()` and `WidgetBundle.main()` run): serves the
/// extension channel on stdin/stdout until stdin ends.
///
/// Threads: the read-answer-write loop runs on a thread of its own, one request at a
/// time and in order, blocking while the provider works (async provider and intent code runs
/// on that thread meanwhile: `ChannelExecutor`); the main thread sits in
/// `dispatchMain()` so that providers which hop to `DispatchQueue.main` or the main
/// actor (SwiftData's `mainContext`, for one) still run and complete (libdispatch drains the
/// main queue on an overcommit thread, which its worker monitor leaves alone); every other
/// task runs on the SDK's global executor (`GlobalExecutor`, at most four threads, started on
/// demand), never on libdispatch's global queues.
enum ExtensionMain {
    static func run(named name: String, makeServer: () throws -> ExtensionServer) -> Never {
        // First, before any other thread starts: tasks run on the SDK's threads, not on
        // libdispatch's monitored pool, which the sandbox would crash (GlobalExecutor).
        #if os(Linux)
            let missed = GlobalExecutor.installInProcess()
            if !missed.isEmpty {
                StandardError.write(
                    "widgetkit: cannot install \(missed.joined(separator: ", ")); tasks run on libdispatch's worker pool, "
                        + "which dies inside the sandbox (docs/security.md)")
            }
        #endif
        // A host that goes away must not kill us with SIGPIPE mid-write; EPIPE ends the loop instead.
        signal(SIGPIPE, SIG_IGN)
        let server: ExtensionServer
        do {
            server = try makeServer()
        } catch {
            StandardError.write("\(name): \(error)")
            exit(1)
        }
        let output = takeStandardOutput()
        // Async provider and intent code runs on the loop's thread (see ChannelExecutor).
        ChannelExecutor.shared.withLock { $0 = ChannelExecutor() }
        let loop = Thread { serve(server, output: output) }
        loop.name = "widgetkit-extension-channel"
        // Provider code runs on this thread; give it a main-thread-sized stack.
        loop.stackSize = 8 << 20
        loop.start()
        dispatchMain()
    }

    /// Keeps stdout for the protocol alone. The protocol gets a private duplicate of
    /// fd 1, and fd 1 becomes stderr, so a stray `print` in provider code lands in the
    /// host's log instead of corrupting the channel.
    private static func takeStandardOutput() -> FileDescriptorOutput {
        let channel = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard channel >= 0 else {
            StandardError.write("widgetkit: cannot duplicate stdout (errno \(errno)); printing from the provider will corrupt the channel")
            return FileDescriptorOutput(fd: STDOUT_FILENO)
        }
        if dup2(STDERR_FILENO, STDOUT_FILENO) < 0 {
            let devNull = open("/dev/null", O_WRONLY)
            if devNull >= 0 { _ = dup2(devNull, STDOUT_FILENO) }
        }
        // fd 1 is now a pipe to the host's log: flush `print` output line by line, not in 4 KiB blocks.
        setvbuf(stdout, nil, _IOLBF, 0)
        return FileDescriptorOutput(fd: channel)
    }

    private static func serve(_ server: ExtensionServer, output: FileDescriptorOutput) -> Never {
        var framer = LineFramer(maxLineBytes: ExtensionServer.maxLineBytes)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                StandardError.write("widgetkit: reading stdin failed (errno \(errno)); exiting")
                exit(1)
            }
            // The read buffer's bytes, not a slice of it: `append(some Sequence)` runs
            // unspecialised across modules, a fifth of the SDK's time per request (perf).
            let frames =
                count == 0
                ? framer.finish() : chunk.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for frame in frames {
                guard let reply = server.handle(frame: frame) else { continue }
                switch output.write(reply) {
                case .success: break
                case .failure(.closed): exit(0)
                case .failure(.failed(let code)):
                    StandardError.write("widgetkit: writing a reply failed (errno \(code)); exiting")
                    exit(1)
                }
            }
            // End of stdin: the host is done with us.
            if count == 0 { exit(0) }
        }
    }
}
