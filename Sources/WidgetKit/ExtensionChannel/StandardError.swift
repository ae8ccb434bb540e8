#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The extension's log: the host copies stderr into its own log under the extension's name.
enum StandardError {
    /// Writes `message` and a newline with one `write`, so lines from several threads do not interleave.
    static func write(_ message: String) {
        let line = Array((message + "\n").utf8)
        _ = FileDescriptorOutput(fd: STDERR_FILENO).write(line)
    }
}
