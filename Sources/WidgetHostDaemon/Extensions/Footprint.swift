import Foundation

/// An extension's memory footprint as iOS counts `phys_footprint` most closely on Linux:
/// anonymous resident memory plus swapped-out memory (`RssAnon + VmSwap` in
/// `/proc/PID/status`), summed over the process and its descendants.
struct FootprintReader: Sendable {
    /// `/proc`, or a fake directory in tests.
    var procRoot = "/proc"

    /// Bytes, or nil if the process is gone.
    func footprint(ofProcessGroupLeader pid: Int32) -> Int? {
        let members = processes(inGroup: pid)
        guard !members.isEmpty else { return footprint(ofProcess: pid) }
        let figures = members.compactMap { footprint(ofProcess: $0) }
        return figures.isEmpty ? nil : figures.reduce(0, +)
    }

    func footprint(ofProcess pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "\(procRoot)/\(pid)/status", encoding: .utf8) else { return nil }
        return Self.parseStatus(text)
    }

    /// `RssAnon + VmSwap` from the text of `/proc/PID/status`, in bytes.
    static func parseStatus(_ text: String) -> Int? {
        var anon: Int?
        var swap = 0
        for line in text.split(separator: "\n") {
            if line.hasPrefix("RssAnon:") {
                anon = kibibytes(line)
            } else if line.hasPrefix("VmSwap:") {
                swap = kibibytes(line) ?? 0
            }
        }
        return anon.map { ($0 + swap) * 1024 }
    }

    private static func kibibytes(_ line: Substring) -> Int? {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }

    /// The pids whose process group is `pgid` (an extension and whatever it forked),
    /// from field 5 of `/proc/PID/stat`.
    func processes(inGroup pgid: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: procRoot) else { return [] }
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "\(procRoot)/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After "pid (comm)": state ppid pgrp …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[2]) == pgid
        }.sorted()
    }
}
