import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostRunner

/// The footprint sampler runs every 50 ms while a request is in flight, for the life of the
/// daemon: what it reads must cost nothing that stays.
@Suite("Footprint sampling", .serialized)
struct FootprintTests {
    /// This process's own footprint (RssAnon + VmSwap), in KiB.
    static func rssAnonKiB() -> Int {
        (FootprintReader().footprint(ofProcess: getpid()) ?? 0) / 1024
    }

    @Test("Kernel files: text, an empty file as empty text, a missing file as nil")
    func kernelFiles() throws {
        #expect(KernelFile.read("/proc/self/status")?.contains("RssAnon:") == true)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID())").path
        _ = FileManager.default.createFile(atPath: empty, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(KernelFile.read(empty) == "")
        #expect(KernelFile.read("/proc/self/nonexistent") == nil)
        let big = String(repeating: "x", count: 10_000)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID())").path
        try big.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(KernelFile.read(path) == big)
    }

    @Test("5,000 footprint reads of a process tree leave RssAnon where it was (Foundation leaked 20 KiB a read)")
    func readingDoesNotLeak() {
        let reader = FootprintReader()
        for _ in 0..<100 { _ = reader.footprint(ofProcessGroupLeader: getpid()) }
        let before = Self.rssAnonKiB()
        for _ in 0..<5_000 { #expect(reader.footprint(ofProcessGroupLeader: getpid()) != nil) }
        let grown = Self.rssAnonKiB() - before
        #expect(grown < 1024, "RssAnon grew \(grown) KiB over 5,000 reads")
    }

    @Test("RssAnon + VmSwap are read from the status text, in bytes; a missing or garbled RssAnon is no figure")
    func parsesStatus() {
        let status = "Name:\tworker\nVmRSS:\t    9000 kB\nRssAnon:\t    1234 kB\nRssFile:\t 7000 kB\nVmSwap:\t      16 kB\n"
        #expect(FootprintReader.parseStatus(status) == (1234 + 16) * 1024)
        #expect(FootprintReader.parseStatus("RssAnon: 10 kB") == 10 * 1024)
        #expect(FootprintReader.parseStatus("RssAnon:\t2 kB\nVmSwap:\tx kB\n") == 2 * 1024)
        #expect(FootprintReader.parseStatus("VmSwap:\t16 kB\n") == nil)
        #expect(FootprintReader.parseStatus("RssAnon:\t12x4 kB\n") == nil)
        #expect(FootprintReader.parseStatus("RssAnon:\t kB\n") == nil)
        #expect(FootprintReader.parseStatus("") == nil)
        // The real file parses, and agrees with the figure /proc gives as text.
        let own = KernelFile.read("/proc/self/status") ?? ""
        let line = own.split(separator: "\n").first { $0.hasPrefix("RssAnon:") } ?? ""
        let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        #expect((FootprintReader.parseStatus(own) ?? 0) >= kib * 1024)
    }
}
