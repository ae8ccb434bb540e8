import Foundation
import Testing
import WidgetHostRunner

/// One builder of libfaketime's variables, for every architecture Debian ships it on.
@Suite("libfaketime environment")
struct FakeTimeTests {
    @Test("The library is looked for in Debian's multiarch directory for this machine first")
    func multiarch() {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let triples = ["x86_64": "x86_64-linux-gnu", "aarch64": "aarch64-linux-gnu"]
        #expect(FakeTime.multiarchTriple == triples[machine] ?? FakeTime.multiarchTriple)
        #expect(FakeTime.searchPaths.first == "/usr/lib/\(FakeTime.multiarchTriple)/faketime/libfaketime.so.1")
        if let library = FakeTime.library { #expect(FileManager.default.fileExists(atPath: library)) }
    }

    @Test("Starting at an instant: seconds since the epoch, whatever the time zone")
    func startingAt() throws {
        let instant = try #require(ISO8601DateFormatter().date(from: "2026-02-15T08:00:30Z"))
        let environment = FakeTime.environment(.startingAt(instant), library: "/lib/libfaketime.so.1")
        #expect(environment == ["LD_PRELOAD": "/lib/libfaketime.so.1", "FAKETIME": "@1771142430", "FAKETIME_FMT": "%s"])
    }

    @Test("Following a file the virtual clock rewrites, re-read on every call")
    func following() {
        let environment = FakeTime.environment(.following(timestampFile: "/state/virtual-clock/faketime"), library: "/l.so")
        #expect(environment == [
            "LD_PRELOAD": "/l.so", "FAKETIME_TIMESTAMP_FILE": "/state/virtual-clock/faketime", "FAKETIME_NO_CACHE": "1",
        ])
    }

    @Test("Without the library there is no environment, and the sentence says how to install it")
    func missing() {
        #expect(FakeTime.environment(.startingAt(Date()), library: nil) == nil)
        #expect(FakeTime.missing.contains("apt-get install faketime"))
    }
}
