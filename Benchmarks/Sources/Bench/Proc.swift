import Foundation

/// What /proc says about a process: the figures the benchmarks compare.
enum Proc {
    /// A field of /proc/PID/status in kB, as bytes (`RssAnon`, `VmSwap`).
    static func statusBytes(_ pid: pid_t, _ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Voluntary plus involuntary context switches of every thread of `pid`: each one is
    /// a time the process was scheduled off the CPU, so their count is its wake-ups.
    static func contextSwitches(_ pid: pid_t) -> Int {
        var total = 0
        for text in threadFiles(pid, "status") ?? [] {
            for line in text.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                total += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return total
    }

    static func threadCount(_ pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).count
    }

    /// CPU seconds from /proc/PID/stat: the process's own (utime + stime) and its reaped
    /// children's (cutime + cstime).
    static func cpuSeconds(_ pid: pid_t) -> (own: Double, children: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm)": state is field 3; utime 14, stime 15, cutime 16, cstime 17.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 15, let utime = Double(fields[11]), let stime = Double(fields[12]),
            let cutime = Double(fields[13]), let cstime = Double(fields[14])
        else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ((utime + stime) / ticks, (cutime + cstime) / ticks)
    }

    /// The pids whose parent is one of `pid`'s threads. The kernel lists a child under the
    /// thread that started it (`/proc/PID/task/TID/children`), and the daemon starts its
    /// extensions on its event loop's thread, not its main one.
    static func children(of pid: pid_t) -> [pid_t] {
        (threadFiles(pid, "children") ?? []).flatMap { text in
            text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// Nanoseconds every thread of `pid` has run (the first field of each thread's
    /// `/proc/PID/task/TID/schedstat`), or nil if the process is gone.
    static func runNanoseconds(_ pid: pid_t) -> UInt64? {
        threadFiles(pid, "schedstat").map { texts in
            texts.reduce(0) { $0 + (($1.split(separator: " ").first).flatMap { UInt64($0) } ?? 0) }
        }
    }

    /// The text of `/proc/PID/task/TID/NAME` for each thread of `pid`, in thread-id order (a
    /// thread that ended meanwhile left out); nil if the process is gone.
    private static func threadFiles(_ pid: pid_t, _ name: String) -> [String]? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        return tasks.sorted().compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/\(name)", encoding: .utf8) }
    }
}
