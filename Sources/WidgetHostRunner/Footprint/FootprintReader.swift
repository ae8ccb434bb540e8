#if canImport(Glibc)
import Glibc
#endif

/// An extension's memory footprint as iOS counts `phys_footprint` most closely on Linux:
/// anonymous resident memory plus swapped-out memory (`RssAnon + VmSwap` in
/// `/proc/PID/status`), summed over the process and its descendants.
///
/// Each call opens what it reads. The daemon reads one process again and again (every
/// sample, every reply) through a `ProcessFootprint`, which keeps the leader's files open.
public struct FootprintReader: Sendable {
    /// `/proc`, or a fake directory in tests.
    var procRoot = "/proc"

    public init() {}

    init(procRoot: String) {
        self.procRoot = procRoot
    }

    /// Bytes for the process and all its descendants, or nil if the process is gone.
    public func footprint(ofProcessGroupLeader pid: Int32) -> Int? {
        let scanner = ProcScanner()
        guard let own = scanner.footprint(statusPath: "\(procRoot)/\(pid)/status") else { return nil }
        return descendants(of: pid, scanner: scanner).reduce(own) {
            $0 + (scanner.footprint(statusPath: "\(procRoot)/\($1)/status") ?? 0)
        }
    }

    func footprint(ofProcess pid: Int32) -> Int? {
        ProcScanner().footprint(statusPath: "\(procRoot)/\(pid)/status")
    }

    /// `RssAnon + VmSwap` from the text of `/proc/PID/status`, in bytes.
    static func parseStatus(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { ProcScanner.parseStatus(UnsafeRawBufferPointer($0)) }
    }

    /// Children, grandchildren, … of `pid`, from `/proc/PID/task/TID/children` — a walk of
    /// the process's own subtree rather than a scan of every process on the machine, since it
    /// runs every 50 ms while a request is in flight. `tasks`: `pid`'s task directory, open
    /// already (`ProcessFootprint` keeps it); the descendants' are opened and closed.
    func descendants(of pid: Int32, tasks: OpaquePointer? = nil, scanner: ProcScanner = ProcScanner()) -> [Int32] {
        var found: [Int32] = []
        if let tasks {
            scanner.appendChildren(ofTasksIn: tasks, to: &found)
        } else {
            appendChildren(of: pid, scanner: scanner, to: &found)
        }
        var next = 0
        while next < found.count, found.count < 4096 {
            appendChildren(of: found[next], scanner: scanner, to: &found)
            next += 1
        }
        return found
    }

    private func appendChildren(of pid: Int32, scanner: ProcScanner, to found: inout [Int32]) {
        guard let tasks = opendir("\(procRoot)/\(pid)/task") else { return }
        defer { closedir(tasks) }
        scanner.appendChildren(ofTasksIn: tasks, to: &found)
    }
}

/// One process's footprint (`FootprintReader`'s measure: the process and its descendants),
/// read through the process's `status` and `task` directory kept open from the first read
/// to `close()`: a read is one `pread` of `status`, a rewind and `getdents64` of the task
/// directory, and each thread's `children` — ten system calls for two threads, not fifteen.
/// A descriptor kept open names the process itself, so a reused pid is never read in its
/// place; once the process is reaped, its `status` no longer reads and the figure is nil.
///
/// Not thread-safe: one owner reads it (the daemon's event loop).
public final class ProcessFootprint {
    public let pid: Int32
    private let reader: FootprintReader
    private let scanner = ProcScanner()
    private var status: CInt = -1
    private var tasks: OpaquePointer?
    private var closed = false

    public convenience init(pid: Int32) {
        self.init(pid: pid, reader: FootprintReader())
    }

    init(pid: Int32, reader: FootprintReader) {
        self.pid = pid
        self.reader = reader
    }

    deinit {
        close()
    }

    /// Bytes for the process and all its descendants, or nil if the process is gone (or
    /// `close()` was called).
    public func read() -> Int? {
        guard !closed else { return nil }
        if status < 0 {
            status = open("\(reader.procRoot)/\(pid)/status", O_RDONLY | O_CLOEXEC)
            guard status >= 0 else { return nil }
        }
        guard let own = scanner.footprint(statusAt: status) else { return nil }
        if tasks == nil { tasks = opendir("\(reader.procRoot)/\(pid)/task") }
        guard let tasks else { return own }
        return reader.descendants(of: pid, tasks: tasks, scanner: scanner).reduce(own) {
            $0 + (scanner.footprint(statusPath: "\(reader.procRoot)/\($1)/status") ?? 0)
        }
    }

    /// Closes the kept descriptors; `read()` gives nil from now on.
    public func close() {
        closed = true
        if status >= 0 {
            Glibc.close(status)
            status = -1
        }
        if let tasks {
            closedir(tasks)
            self.tasks = nil
        }
    }
}
