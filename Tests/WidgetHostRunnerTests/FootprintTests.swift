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
}
