#if canImport(Glibc)
import Glibc
#endif

/// Reads the small text files of /proc and cgroupfs with open/read/close.
///
/// Not `String(contentsOfFile:)`: these files report a size of 0, and on this toolchain
/// (swift-foundation, Swift 6.3) reading a file that turns out to be empty — a process's
/// `task/TID/children` with no children, every 50 ms while a request runs — leaked Foundation's
/// 4 KiB read buffer each time: about 8 KiB per reload in the daemon
/// (`FootprintTests.readingDoesNotLeak`).
enum KernelFile {
    /// The file's text, or nil if it cannot be opened or read.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
