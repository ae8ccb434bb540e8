import Dispatch
import Foundation
import Synchronization
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// A Swift extension built with the SDK (Tests/Fixtures/ConcurrencyExtension), run inside
/// widgethost-sandbox as the daemon runs it: its tasks run on the SDK's global executor, so
/// libdispatch's worker monitor, which crashed sandboxed extensions because it cannot open
/// `/proc/TID/stat`, has no worker to watch (docs/security.md).
@Suite(
    "Swift concurrency in a sandboxed extension runs on the SDK's threads", .tags(.process),
    .enabled(if: SandboxWorld.kernel.landlockABI >= 1, "this kernel offers no Landlock (lsm= lacks landlock)"),
    .enabled(if: SandboxShim.path != nil, "widgethost-sandbox is not built beside the test bundle"),
    .enabled(if: ConcurrencyFixture.path != nil, "ConcurrencyFixtureWidget is not built beside the test bundle"))
struct GlobalExecutorTests {
    /// Asks the fixture for the timeline of `kind` in a fresh sandboxed process.
    static func timeline(_ kind: String) throws -> (content: JSONValue?, outcome: String) {
        let bundle = NSTemporaryDirectory() + "ConcurrencyFixture-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).appex"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let launch = ExtensionLaunch(
            bundleID: "com.example.concurrency.widget", executable: ConcurrencyFixture.path!, directory: bundle,
            environment: ["PATH": ExtensionLaunch.defaultPath, "WIDGETHOST_BUNDLE": bundle, "WIDGETHOST_APP_GROUPS": ""])
        let limits = ExtensionLimits()
        let call = ExtensionRequest.Call.timeline(
            TimelineParams(kind: kind, family: .systemSmall, widgetId: "w1", now: Date()))
        let outcome = ColdCall(limits: limits, sampleInterval: nil).request(call, of: launch)
        switch outcome.result {
        case .success(.timeline(let payload, _)):
            return (payload.entries.first?.content, "replied")
        case .success(let other):
            return (nil, "unexpected \(other)")
        case .failure(let failure):
            return (nil, "\(failure); stderr: \(outcome.stderrTail.suffix(3).joined(separator: " | "))")
        }
    }

    @Test("Task {}, Task.detached, Task.sleep, task groups, async let, actors and continuations run on the SDK's threads")
    func constructs() throws {
        let (content, outcome) = try Self.timeline("Constructs")
        try #require(outcome == "replied")
        guard case .object(let report)? = content, case .object(let ran)? = report["ran"] else {
            Issue.record("no report: \(String(describing: content))")
            return
        }
        // Async provider code and what it awaits with its preference stay on the stdin loop's thread.
        for name in ["provider", "sleepInProvider", "groupInProvider", "afterMainActor"] {
            #expect(ran[name] == .string("channel"), "\(name)")
        }
        // Everything that falls to the global executor runs on the SDK's threads.
        let global = [
            "task", "detached", "detachedSleep", "detachedSleepNanoseconds", "detachedSleepSuspending",
            "detachedSleepUntil", "group", "asyncLet", "continuation", "actor", "actorSleep",
        ]
        for name in global {
            #expect(ran[name] == .string("sdk"), "\(name)")
        }
        #expect(report["mainActor"] == .bool(true))
        // No thread of a monitored libdispatch queue ever started.
        #expect(report["dispatchWorkers"] == .array([]))
    }

    @Test("25 sandboxed runs that keep the global executor busy past libdispatch's once-a-second worker check: none dies")
    func pool() throws {
        let runs = 25
        let failures = Mutex<[String]>([])
        // Five at a time: about 10 s in all.
        DispatchQueue.concurrentPerform(iterations: 5) { lane in
            for run in stride(from: lane, to: runs, by: 5) {
                do {
                    let (content, outcome) = try Self.timeline("Pool")
                    guard outcome == "replied", case .object(let report)? = content,
                        case .integer(let finished)? = report["finished"], finished > 0
                    else {
                        failures.withLock { $0.append("run \(run): \(outcome)") }
                        continue
                    }
                    if let workers = report["dispatchWorkers"], workers != .array([]) {
                        failures.withLock { $0.append("run \(run): replied, but libdispatch's monitored workers ran: \(workers)") }
                    }
                } catch {
                    failures.withLock { $0.append("run \(run): \(error)") }
                }
            }
        }
        let failed = failures.withLock { $0 }
        #expect(failed.isEmpty, "\(failed.count) of \(runs) runs failed:\n\(failed.joined(separator: "\n"))")
    }
}

/// Tests/Fixtures/ConcurrencyExtension, built by `swift build` beside the test bundle.
enum ConcurrencyFixture {
    static let path: String? = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let path = ((executable as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("ConcurrencyFixtureWidget")
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
}
