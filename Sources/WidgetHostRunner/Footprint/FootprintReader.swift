import CSpawn

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
    /// Whether any process may have memory in swap: then `status` is read (RssAnon + VmSwap),
    /// otherwise `statm` (RssAnon alone, a tenth of the kernel's work). A fake `/proc` has
    /// only `status` files.
    var swapInUse: @Sendable () -> Bool = Swap.inUse

    public init() {}

    init(procRoot: String) {
        self.procRoot = procRoot
        swapInUse = { true }
    }

    /// Bytes for the process and all its descendants, or nil if the process is gone.
    public func footprint(ofProcessGroupLeader pid: Int32) -> Int? {
        let scanner = ProcScanner()
        let swap = swapInUse()
        guard let own = footprint(ofProcess: pid, scanner: scanner, swap: swap) else { return nil }
        return descendants(of: pid, scanner: scanner).reduce(own) {
            $0 + (footprint(ofProcess: $1, scanner: scanner, swap: swap) ?? 0)
        }
    }

    func footprint(ofProcess pid: Int32) -> Int? {
        footprint(ofProcess: pid, scanner: ProcScanner(), swap: swapInUse())
    }

    /// One process's figure, from `status` when swap is in use and from `statm` otherwise.
    func footprint(ofProcess pid: Int32, scanner: ProcScanner, swap: Bool) -> Int? {
        swap
            ? scanner.footprint(statusPath: "\(procRoot)/\(pid)/status")
            : scanner.footprint(statmPath: "\(procRoot)/\(pid)/statm")
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

/// Whether swap holds anything: `sysinfo(2)`, 0.7 µs. With no swap slot in use no process has
/// a swap entry, so every VmSwap is 0 and RssAnon is the whole figure. A page swapped out
/// between this check and the read is counted at the next read, as any change between two
/// reads is.
enum Swap {
    @Sendable static func inUse() -> Bool { widgethost_swap_in_use() != 0 }
}

/// One process's footprint (`FootprintReader`'s measure: the process and its descendants),
/// read through the process's `statm` (or `status` while swap is in use) and `task` directory
/// kept open from the first read to `close()`: a read is `sysinfo`, one `pread`, a rewind and
/// `getdents64` of the task directory, and each thread's `children`.
/// A descriptor kept open names the process itself, so a reused pid is never read in its
/// place; once the process is reaped, its files no longer read and the figure is nil.
///
/// Not thread-safe: one owner reads it (the daemon's event loop).
public final class ProcessFootprint {
    public let pid: Int32
    private let reader: FootprintReader
    private let scanner = ProcScanner()
    private var status: CInt = -1
    private var statm: CInt = -1
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
        let swap = reader.swapInUse()
        openKept(swap: swap)
        let own: Int?
        if swap {
            own = status < 0 ? nil : scanner.footprint(statusAt: status)
        } else {
            own = statm < 0 ? nil : scanner.footprint(statmAt: statm)
        }
        guard let own else { return nil }
        guard let tasks else { return own }
        return reader.descendants(of: pid, tasks: tasks, scanner: scanner).reduce(own) {
            $0 + (reader.footprint(ofProcess: $1, scanner: scanner, swap: swap) ?? 0)
        }
    }

    /// Opens what `read()` keeps open (the process's `statm`, or `status` while swap is in use,
    /// and its `task` directory) ahead of the first read. The daemon calls it right after the
    /// spawn, while the extension loads: at the first read, on the reply's path, opening them
    /// on a process whose `/proc` entries are new was ~40 µs of the ~110 µs the footprint took
    /// between the `timeline/get` reply and `entryChanged` (perf, cold reloads, issue 16).
    public func prepare() {
        guard !closed else { return }
        openKept(swap: reader.swapInUse())
    }

    /// Opens what `read()` keeps open and has not opened yet: the process's `status` while
    /// swap is in use or its `statm`, then its `task` directory.
    private func openKept(swap: Bool) {
        if swap {
            if status < 0 { status = openOwn("status") }
        } else if statm < 0 {
            statm = openOwn("statm")
        }
        if tasks == nil { tasks = opendir("\(reader.procRoot)/\(pid)/task") }
    }

    /// The process's own `status` or `statm`: by path at the first read, and afterwards (swap
    /// came into use, or went) relative to the task directory kept open, whose parent is this
    /// process's directory even once its pid is reused.
    private func openOwn(_ name: String) -> CInt {
        if let tasks { return openat(dirfd(tasks), "../" + name, O_RDONLY | O_CLOEXEC) }
        return open("\(reader.procRoot)/\(pid)/\(name)", O_RDONLY | O_CLOEXEC)
    }

    /// Closes the kept descriptors; `read()` gives nil from now on.
    public func close() {
        closed = true
        if status >= 0 {
            Glibc.close(status)
            status = -1
        }
        if statm >= 0 {
            Glibc.close(statm)
            statm = -1
        }
        if let tasks {
            closedir(tasks)
            self.tasks = nil
        }
    }
}
