import Dispatch
import Foundation
import Synchronization
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// A Swift extension built with the SDK (Tests/Fixtures/ConcurrencyExtension), run inside
/// the sandbox as the daemon confines it: its tasks run on the SDK's global executor, so
/// libdispatch's worker monitor, which crashed sandboxed extensions because it cannot open
/// `/proc/TID/stat`, has no worker to watch (docs/security.md).
@Suite(
    "Swift concurrency in a sandboxed extension runs on the SDK's threads", .tags(.process),
    .enabled(if: SandboxWorld.kernel.landlockABI >= 1, "this kernel offers no Landlock (lsm= lacks landlock)"),
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
    func pool() async throws {
        let runs = 25
        let failures = Failures()
        // Five at a time (about 20 s in all), on threads of their own: each run blocks its
        // thread, and this process's own concurrency pool must stay free for other tests.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                let lanes = DispatchGroup()
                for lane in 0..<5 {
                    lanes.enter()
                    Thread.detachNewThread {
                        for run in stride(from: lane, to: runs, by: 5) { failures.record(Self.poolRun(run)) }
                        lanes.leave()
                    }
                }
                lanes.wait()
                done.resume()
            }
        }
        let failed = failures.all
        #expect(failed.isEmpty, "\(failed.count) of \(runs) runs failed:\n\(failed.joined(separator: "\n"))")
    }

    /// One run of the "Pool" widget: nil if it answered, on the SDK's threads only; else what went wrong.
    static func poolRun(_ run: Int) -> String? {
        do {
            let (content, outcome) = try timeline("Pool")
            guard outcome == "replied", case .object(let report)? = content,
                case .integer(let finished)? = report["finished"], finished > 0
            else { return "run \(run): \(outcome)" }
            if let workers = report["dispatchWorkers"], workers != .array([]) {
                return "run \(run): replied, but libdispatch's monitored workers ran: \(workers)"
            }
            return nil
        } catch {
            return "run \(run): \(error)"
        }
    }
}

/// What went wrong in the runs, from several threads.
final class Failures: Sendable {
    private let list = Mutex<[String]>([])
    func record(_ failure: String?) { if let failure { list.withLock { $0.append(failure) } } }
    var all: [String] { list.withLock { $0 } }
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
