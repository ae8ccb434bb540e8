import Foundation
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A raw connection to the control socket: lines out as given, lines in as JSON values, so
/// that tests see exactly what a client in another language would (arrays included).
final class LineSocket {
    let fd: CInt
    private var framer = LineFramer(maxLineBytes: 64 * 1024 * 1024)
    private var pending: [[UInt8]] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The next line as JSON; nil on EOF or after 20 s.
    func receive() -> JSONValue? {
        while pending.isEmpty {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return nil }
            for frame in framer.append(buffer[0..<count]) {
                if case .line(let line) = frame { pending.append(line) }
            }
        }
        return try? WireCoding.decode(JSONValue.self, from: Data(pending.removeFirst()))
    }

    /// Sends a request and returns its `result` (nil if it failed).
    func call(_ method: String, _ params: JSONValue? = nil, id: Int = 1000) throws -> JSONValue? {
        let request = JSONRPCMessage.request(id: .number(id), method: method, params: params)
        send(String(decoding: try request.encodedLine().dropLast(), as: UTF8.self))
        return receive()?.objectValue?["result"]
    }

    /// Sends `line`, then a sentinel request: true when the sentinel's reply is the very next
    /// line, that is, when `line` was answered with nothing.
    func answersNothing(_ line: String) -> Bool {
        send(line)
        send(#"{"jsonrpc":"2.0","id":"sentinel","method":"status"}"#)
        return receive()?.objectValue?["id"] == .string("sentinel")
    }
}

extension JSONValue {
    var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { object } else { nil }
    }
}
