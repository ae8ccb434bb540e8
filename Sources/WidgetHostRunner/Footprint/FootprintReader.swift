import Foundation

/// An extension's memory footprint as iOS counts `phys_footprint` most closely on Linux:
/// anonymous resident memory plus swapped-out memory (`RssAnon + VmSwap` in
/// `/proc/PID/status`), summed over the process and its descendants.
public struct FootprintReader: Sendable {
    /// `/proc`, or a fake directory in tests.
    var procRoot = "/proc"

    public init() {}

    init(procRoot: String) {
        self.procRoot = procRoot
    }

    /// Bytes for the process and all its descendants, or nil if the process is gone.
    public func footprint(ofProcessGroupLeader pid: Int32) -> Int? {
        guard let own = footprint(ofProcess: pid) else { return nil }
        return descendants(of: pid).reduce(own) { $0 + (footprint(ofProcess: $1) ?? 0) }
    }

    func footprint(ofProcess pid: Int32) -> Int? {
        guard let text = KernelFile.read("\(procRoot)/\(pid)/status") else { return nil }
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

    /// Children, grandchildren, … of `pid`, from `/proc/PID/task/TID/children` — a walk of
    /// the process's own subtree rather than a scan of every process on the machine, since it
    /// runs every 50 ms while a request is in flight.
    func descendants(of pid: Int32) -> [Int32] {
        var found: [Int32] = []
        var queue = [pid]
        while let parent = queue.popLast(), found.count < 4096 {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "\(procRoot)/\(parent)/task")) ?? []
            for task in tasks {
                guard let text = KernelFile.read("\(procRoot)/\(parent)/task/\(task)/children")
                else { continue }
                let children = text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                found += children
                queue += children
            }
        }
        return found
    }
}
