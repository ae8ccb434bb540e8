#if canImport(Glibc)
import Glibc
#endif

/// Top-level code in main.swift is main-actor isolated; the server's threads are not, so it lives here.
enum EchoServer {
    /// One line on stderr, then exit.
    static func fail(_ message: String, status: Int32) -> Never {
        let bytes = Array("widgethost-bench-echo: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(status)
    }

    /// What a connection's thread needs: its descriptor and the reply.
    final class Connection {
        let descriptor: Int32
        let reply: [UInt8]?
        init(descriptor: Int32, reply: [UInt8]?) {
            self.descriptor = descriptor
            self.reply = reply
        }
    }

    static func run(arguments: [String]) -> Never {
        guard arguments.count >= 2 else { fail("usage: widgethost-bench-echo SOCKET [REPLY_FILE]", status: 64) }
        let path = arguments[1]
        var cannedReply: [UInt8]? = nil
        if arguments.count >= 3 {
            guard let file = fopen(arguments[2], "rb") else { fail("cannot open \(arguments[2])", status: 66) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = fread(&chunk, 1, chunk.count, file)
                if count <= 0 { break }
                bytes += chunk[0..<count]
            }
            fclose(file)
            if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
            cannedReply = bytes
        }
        let reply = cannedReply

        signal(SIGPIPE, SIG_IGN)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { fail("socket path too long", status: 64) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            fail("cannot listen on \(path): \(String(cString: strerror(errno)))", status: 71)
        }

        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            var thread = pthread_t()
            let box = Unmanaged.passRetained(Connection(descriptor: connection, reply: reply)).toOpaque()
            pthread_create(&thread, nil, { argument in
                let connection = Unmanaged<Connection>.fromOpaque(argument!).takeRetainedValue()
                EchoServer.serve(connection.descriptor, reply: connection.reply)
                return nil
            }, box)
            pthread_detach(thread)
        }
    }

    /// Serves one connection: every complete line gets `reply` (or itself) back.
    static func serve(_ connection: Int32, reply: [UInt8]?) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var pending: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[...newline]
                let answer = reply ?? Array(line)
                var offset = 0
                while offset < answer.count {
                    let written = answer.withUnsafeBytes { send(connection, $0.baseAddress! + offset, $0.count - offset, 0) }
                    if written <= 0 { close(connection); return }
                    offset += written
                }
                pending.removeSubrange(...newline)
            }
        }
        close(connection)
    }
}
