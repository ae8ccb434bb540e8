#if canImport(Glibc)
import Glibc
#endif

/// The reads both footprint readers share, at the byte level: a file of /proc read with
/// `pread` into one buffer kept for the reader's life, its numbers parsed where they lie,
/// a task directory listed with `readdir`, a thread's children file opened relative to it.
/// No `String`, no `FileManager`: through them a footprint read of one process cost ~45,000
/// instructions and fifteen system calls (issue 16, callgrind and `strace -c`).
final class ProcScanner {
    private var buffer: UnsafeMutableRawBufferPointer

    init() {
        buffer = .allocate(byteCount: 4096, alignment: 1)
    }

    deinit {
        buffer.deallocate()
    }

    // MARK: status

    /// `RssAnon + VmSwap` in bytes from the `status` file open at `descriptor`, read from its
    /// start; nil if it cannot be read or has no RssAnon (a zombie has no memory lines).
    ///
    /// `status` is a `single_open` seq_file: the kernel makes the whole text at once and a
    /// read as large as it returns all of it, so a read shorter than the buffer is the end of
    /// the file (one `pread`, not a second one that returns 0); a read that fills the buffer
    /// reads on to the end.
    func footprint(statusAt descriptor: CInt) -> Int? {
        guard let count = read(descriptor, shortReadIsEnd: true) else { return nil }
        return Self.parseStatus(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// The same for `path`: opened, read and closed.
    func footprint(statusPath path: String) -> Int? {
        reading(path) { footprint(statusAt: $0) }
    }

    /// `RssAnon + VmSwap` in bytes from a status file's bytes; nil unless RssAnon is there as
    /// a whole decimal number (a garbled VmSwap counts as 0).
    static func parseStatus(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var anon: Int?
        var swap = 0
        var start = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        while start < count {
            // memchr: the ~55 lines of a status file are skipped a vector at a time.
            let end = memchr(base + start, CInt(UInt8(ascii: "\n")), count - start).map { base.distance(to: UnsafeRawPointer($0)) } ?? count
            // Only the two lines asked for are compared past their first byte.
            switch bytes[start] {
            case UInt8(ascii: "R") where hasPrefix(bytes, start, end, rssAnon):
                anon = kibibytes(bytes, from: start + rssAnon.count, to: end)
            case UInt8(ascii: "V") where hasPrefix(bytes, start, end, vmSwap):
                swap = kibibytes(bytes, from: start + vmSwap.count, to: end) ?? 0
            default: break
            }
            start = end + 1
        }
        return anon.map { ($0 + swap) * 1024 }
    }

    // MARK: statm

    /// `RssAnon` in bytes from the `statm` file open at `descriptor`: resident minus shared
    /// pages, which is the kernel's anonymous page count (`MM_ANONPAGES`, what `status` prints
    /// as RssAnon); nil if it cannot be read or the process has no memory (a zombie's statm
    /// is all zeros). It has no swap: `FootprintReader.swapInUse` says when that may be read
    /// instead. `statm` is a `single_open` seq_file like `status`, a tenth of its cost to
    /// make (0.4 µs against 3.7 µs a `pread`, measured on the bench extension).
    func footprint(statmAt descriptor: CInt) -> Int? {
        guard let count = read(descriptor, shortReadIsEnd: true) else { return nil }
        return Self.parseStatm(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// The same for `path`: opened, read and closed.
    func footprint(statmPath path: String) -> Int? {
        reading(path) { footprint(statmAt: $0) }
    }

    /// `read` of `path` opened for it, closed after; nil if it does not open.
    private func reading(_ path: String, _ read: (CInt) -> Int?) -> Int? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return read(descriptor)
    }

    /// `(resident - shared) * page size` from statm's "size resident shared text lib data dt";
    /// nil unless the first three are decimal numbers and resident is not zero.
    static func parseStatm(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var fields: (Int, Int, Int) = (0, 0, 0)
        var field = 0
        var digits = 0
        var value = 0
        for byte in bytes {
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard digits < 18 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                continue
            }
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n"), digits > 0 else { return nil }
            switch field {
            case 0: fields.0 = value
            case 1: fields.1 = value
            default: fields.2 = value
            }
            field += 1
            if field == 3 { break }
            digits = 0
            value = 0
        }
        guard field == 3, fields.1 > 0, fields.2 <= fields.1 else { return nil }
        return (fields.1 - fields.2) * pageSize
    }

    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    private static let rssAnon: [UInt8] = Array("RssAnon:".utf8)
    private static let vmSwap: [UInt8] = Array("VmSwap:".utf8)

    private static func hasPrefix(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ prefix: [UInt8]) -> Bool {
        guard end - start >= prefix.count else { return false }
        for index in 0..<prefix.count where bytes[start + index] != prefix[index] { return false }
        return true
    }

    /// The number after a field's name and its blanks ("RssAnon:\t    1234 kB" → 1234); nil
    /// unless it is a whole decimal word.
    private static func kibibytes(_ bytes: UnsafeRawBufferPointer, from offset: Int, to end: Int) -> Int? {
        var index = offset
        while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        var value = 0
        var digits = 0
        while index < end, bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\t") {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }

    // MARK: tasks and children

    /// The children of every thread listed in `tasks` (an open `/proc/PID/task`), appended to
    /// `found`, from the start of the directory.
    func appendChildren(ofTasksIn tasks: OpaquePointer, to found: inout [Int32]) {
        rewinddir(tasks)
        let directory = dirfd(tasks)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(tasks) {
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            // "." and ".." (and anything else not a thread id) are skipped.
            guard name[0] >= CChar(UInt8(ascii: "1")), name[0] <= CChar(UInt8(ascii: "9")) else { continue }
            appendChildren(ofTask: name, in: directory, to: &found)
        }
    }

    /// `TID/children` opened relative to the task directory, read to its end, closed.
    private func appendChildren(ofTask name: UnsafePointer<CChar>, in directory: CInt, to found: inout [Int32]) {
        let suffix = "/children"
        let descriptor: CInt = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { path in
            var length = 0
            while name[length] != 0, length < 40 {
                path[length] = name[length]
                length += 1
            }
            for byte in suffix.utf8 {
                path[length] = CChar(bitPattern: byte)
                length += 1
            }
            path[length] = 0
            return openat(directory, path.baseAddress!, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // Not a single_open file: one line of ids made record by record, read until 0.
        guard let count = read(descriptor, shortReadIsEnd: false) else { return }
        var value: Int32 = 0
        var digits = 0
        for index in 0..<count {
            let byte = buffer[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 {
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
                digits += 1
            } else {
                if digits > 0 { found.append(value) }
                value = 0
                digits = 0
            }
        }
        if digits > 0 { found.append(value) }
    }

    // MARK: reading

    /// The file at `descriptor` from offset 0 into `buffer` (grown as needed); its length.
    private func read(_ descriptor: CInt, shortReadIsEnd: Bool) -> Int? {
        var total = 0
        while true {
            if total == buffer.count { grow() }
            let count = pread(descriptor, buffer.baseAddress! + total, buffer.count - total, off_t(total))
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return total }
            total += count
            if shortReadIsEnd, total < buffer.count { return total }
        }
    }

    private func grow() {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
        larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
        buffer = larger
    }
}
