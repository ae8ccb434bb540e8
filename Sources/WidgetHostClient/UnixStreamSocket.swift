#if canImport(Glibc)
import Glibc
#endif

/// A connected `AF_UNIX` stream socket with blocking writes and reads bounded by `poll`.
/// Thin on purpose: the JSON-RPC logic lives in `ControlClient`.
final class UnixStreamSocket {
    let path: String
    private var descriptor: Int32

    enum ReadResult {
        case bytes([UInt8])
        case endOfStream
        case timedOut
    }

    /// Connects to `path`. Any failure to connect means the daemon cannot be reached there.
    init(connectingTo path: String) throws(ControlClientError) {
        self.path = path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            let code = errno
            throw .daemonUnreachable(path: path, reason: Self.text(code), errno: code)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !pathBytes.isEmpty, pathBytes.count < capacity else {
            _ = Glibc.close(descriptor)
            throw .daemonUnreachable(
                path: path, reason: "a socket path must be 1 to \(capacity - 1) bytes long", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            throw .daemonUnreachable(path: path, reason: Self.text(code), errno: code)
        }
        self.descriptor = descriptor
    }

    /// Takes over a socket connected to `path` by someone else (it is closed with this one).
    init(adopting descriptor: Int32, path: String) {
        self.path = path
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    deinit { close() }

    func close() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Writes all of `bytes`. `MSG_NOSIGNAL`: a daemon that went away is an error, not SIGPIPE.
    func write(_ bytes: [UInt8]) throws(ControlClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .io(path: path, operation: "writing to the control socket", reason: Self.text(code))
            }
            offset += written
        }
    }

    /// Reads what is available, waiting at most until `deadline` (nil: forever).
    func read(until deadline: ContinuousClock.Instant?) throws(ControlClientError) -> ReadResult {
        while true {
            var timeoutMilliseconds: Int32 = -1
            if let deadline {
                let remaining = deadline - .now
                if remaining <= .zero { return .timedOut }
                let (seconds, attoseconds) = remaining.components
                let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                timeoutMilliseconds = Int32(clamping: max(1, milliseconds))
            }
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollDescriptor, 1, timeoutMilliseconds)
            if ready < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .io(path: path, operation: "waiting for the daemon", reason: Self.text(code))
            }
            if ready == 0 { continue }  // The deadline check above decides.
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(descriptor, raw.baseAddress, raw.count)
            }
            if count < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN { continue }
                if code == ECONNRESET { return .endOfStream }
                throw .io(path: path, operation: "reading from the control socket", reason: Self.text(code))
            }
            if count == 0 { return .endOfStream }
            return .bytes(Array(buffer[0..<count]))
        }
    }

    static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
