#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unbuffered writes to a file descriptor: each reply line leaves in one `write` call
/// (more only if a pipe takes part of it), so there is nothing to flush and nothing
/// half-written sits in a buffer when the process exits.
struct FileDescriptorOutput: Sendable {
    let fd: Int32

    enum Failure: Error {
        /// The reader has gone (EPIPE): the host closed the channel.
        case closed
        case failed(errno: Int32)
    }

    func write(_ bytes: [UInt8]) -> Result<Void, Failure> {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                    Darwin.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #elseif canImport(Musl)
                    Musl.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return .failure(errno == EPIPE ? .closed : .failed(errno: errno))
            }
            offset += written
        }
        return .success(())
    }
}
