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

    /// `RssAnon + VmSwap` from the text of `/proc/PID/status`, in bytes. Read as bytes: it runs
    /// on every sample and once more with every reply, and splitting the text into `Substring`
    /// lines with Unicode-aware `hasPrefix` cost ~700,000 instructions a read (callgrind).
    static func parseStatus(_ text: String) -> Int? {
        var anon: Int?
        var swap = 0
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if Self.hasPrefix(line, rssAnon) {
                    anon = kibibytes(line, after: rssAnon.count)
                } else if Self.hasPrefix(line, vmSwap) {
                    swap = kibibytes(line, after: vmSwap.count) ?? 0
                }
                start = end + 1
            }
        }
        return anon.map { ($0 + swap) * 1024 }
    }

    private static let rssAnon = Array("RssAnon:".utf8)
    private static let vmSwap = Array("VmSwap:".utf8)

    private static func hasPrefix(_ line: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        line.count >= prefix.count && zip(line, prefix).allSatisfy { $0 == $1 }
    }

    /// The number after the field's name and its blanks ("RssAnon:\t    1234 kB" → 1234); nil
    /// unless it is a whole decimal word.
    private static func kibibytes(_ line: UnsafeBufferPointer<UInt8>, after offset: Int) -> Int? {
        var index = offset
        while index < line.count, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") { index += 1 }
        var value = 0
        var digits = 0
        while index < line.count, line[index] != UInt8(ascii: " "), line[index] != UInt8(ascii: "\t") {
            let byte = line[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
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
