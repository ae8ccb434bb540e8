import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing cgroup interface files. cgroupfs takes one value per `write(2)`,
/// and a failed write says why in `errno` (EBUSY, EINVAL, ESRCH), so writes are single
/// calls whose error is kept, not `String.write(toFile:)`.
enum CgroupFiles {
    /// The file's text, or nil if it cannot be read.
    static func read(_ path: String) -> String? {
        KernelFile.read(path)
    }

    /// Writes `value` in one call. (O_CREAT is harmless on cgroupfs, where the file exists,
    /// and lets a plain directory stand in for a cgroup in tests.)
    static func write(_ value: String, to path: String) throws(CgroupFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CgroupFileError(path: path, errno: errno) }
        defer { close(fd) }
        let bytes = Array(value.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CgroupFileError(path: path, errno: written < 0 ? errno : EIO) }
    }

    /// The whitespace-separated words of a file such as `cgroup.controllers`.
    static func words(_ path: String) -> [String] {
        (read(path) ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    /// A `key value` line of a flat-keyed file such as `memory.events`.
    static func value(of key: String, in text: String) -> Int? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == key { return Int(fields[1]) }
        }
        return nil
    }

    static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }
}

/// A cgroup file that could not be written, with the kernel's reason.
public struct CgroupFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let errno: CInt
    public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
