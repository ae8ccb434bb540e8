import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// The rules every shell asks about a request: the core's own handlers, and the doctor.
@Suite("The verdict on a request")
struct RequestVerdictTests {
    @Test("placeholder/get has placeholder_timeout; intents, options and control values intent_timeout; the rest, initialize too, timeline_timeout")
    func timeouts() {
        var limits = ExtensionLimits()
        limits.placeholderTimeout = 1
        limits.timelineTimeout = 5
        limits.intentTimeout = 3
        #expect(ExtensionMethod.allCases.map { limits.timeout(for: $0) } == [5, 1, 5, 5, 3, 3, 3, 5])
    }

    @Test("A request runs on until its deadline, which is a timeout at the instant it comes", arguments: ExtensionMethod.allCases)
    func deadline(method: ExtensionMethod) {
        let limits = ExtensionLimits()
        let timeout = limits.timeout(for: method)
        #expect(limits.verdict(on: method, sentAt: t0, at: t0 + timeout - 0.001, footprintBytes: nil) == nil)
        #expect(limits.verdict(on: method, sentAt: t0, at: t0 + timeout, footprintBytes: nil) == .timedOut(elapsed: timeout))
        #expect(limits.verdict(on: method, elapsed: timeout + 1, footprintBytes: nil) == .timedOut(elapsed: timeout + 1))
    }

    @Test("A footprint over limits.memory is a memory kill, even at the deadline; at the limit it is not")
    func footprint() {
        let limits = ExtensionLimits()
        #expect(limits.verdict(onFootprint: limits.memory) == nil)
        #expect(limits.verdict(onFootprint: nil) == nil)
        #expect(limits.verdict(onFootprint: limits.memory + 1) == .memoryLimitExceeded(footprintBytes: limits.memory + 1))
        #expect(limits.verdict(on: .timeline, elapsed: 60, footprintBytes: limits.memory + 1)
            == .memoryLimitExceeded(footprintBytes: limits.memory + 1))
    }

    @Test("A process that ended is crashed, unless the kernel killed it for memory")
    func exit() {
        let limits = ExtensionLimits()
        #expect(limits.verdict(onExit: "exited with status 3", before: .timeline, memoryKillFootprint: nil)
            == .crashed("exited with status 3 before answering timeline/get"))
        #expect(limits.verdict(onExit: "killed by signal 9 (Killed)", before: .timeline, memoryKillFootprint: 31_600_000)
            == .memoryLimitExceeded(footprintBytes: 31_600_000))
    }
}
