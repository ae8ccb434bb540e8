#if canImport(Glibc)
import Glibc
#endif

/// The front's connection to the control socket: connect, write the request, and look at the
/// first reply line without taking it off the socket (`MSG_PEEK`), so that the full CLI can
/// still read it when the front hands over.
struct FrontSocket {
    let descriptor: Int32

    init?(connectingTo path: String) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard !pathBytes.isEmpty, pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            _ = Glibc.close(descriptor)
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            _ = Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    func close() { _ = Glibc.close(descriptor) }

    /// Writes all of `bytes`; false on any failure (`MSG_NOSIGNAL`: no SIGPIPE).
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// The first line the daemon sent (without its newline), left on the socket; nil when none
    /// came within the timeout, the connection ended or failed first, or the line is longer
    /// than 64 KiB (the full CLI reads those).
    func peekLine(timeoutMilliseconds: Int) -> [UInt8]? {
        let deadline = now() + timeoutMilliseconds
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&pollDescriptor, 1, Int32(max(0, deadline - now())))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            break
        }
        // The line can arrive in pieces (the daemon writes it so). Once some bytes wait, `poll`
        // says "readable" at once however often they are peeked, so the rest is waited for by
        // peeking again after a pause that doubles from 20 µs to 5 ms; and since a peek shows
        // no end of stream while bytes wait, the daemon's hang-up is asked of `poll` before.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pause = 20_000
        while true {
            let hungUp = peerHungUp()
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            if let newline = buffer[0..<count].firstIndex(of: 0x0A) { return Array(buffer[0..<newline]) }
            guard !hungUp, count < buffer.count, now() < deadline else { return nil }
            var interval = timespec(tv_sec: 0, tv_nsec: pause)
            _ = nanosleep(&interval, nil)
            pause = min(pause * 2, 5_000_000)
        }
    }

    /// Whether the daemon closed its end or shut down writing (POLLRDHUP, 0x2000: Linux's
    /// name for it is not imported without _GNU_SOURCE), or the socket failed.
    private func peerHungUp() -> Bool {
        let rdhup: Int16 = 0x2000
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN) | rdhup, revents: 0)
        guard poll(&pollDescriptor, 1, 0) > 0 else { return false }
        return pollDescriptor.revents & (Int16(POLLHUP) | Int16(POLLERR) | rdhup) != 0
    }

    /// Milliseconds on the monotonic clock.
    func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }

    /// All of `text` to stdout.
    func writeOut(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
