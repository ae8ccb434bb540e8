import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP as bytes on a pipe (the self-pipe trick): the handler only
/// writes the signal's number, which is async-signal-safe; `DescriptorWatch` reads the pipe
/// and the daemon acts on its event loop.
enum SignalPipe {
    /// The write end, for the handler (a C function cannot capture it). Set once, before any
    /// handler is installed.
    nonisolated(unsafe) private static var writeEnd: CInt = -1
    nonisolated(unsafe) private static var readEnd: CInt = -1

    /// Installs the handlers and returns the read end; the same pipe on every call.
    static func install(_ signals: [CInt]) -> CInt? {
        if readEnd < 0 {
            guard let fds = CloseOnExecPipe.make() else { return nil }
            // A burst of signals must never block the handler: extra bytes are dropped.
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            readEnd = fds[0]
            writeEnd = fds[1]
        }
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd, &byte, 1)
                errno = saved
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
        return readEnd
    }

    /// The signals delivered since the last call, in order.
    static func drain() -> [CInt] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [CInt] = []
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { break }
            signals += buffer[0..<count].map { CInt($0) }
        }
        return signals
    }
}
