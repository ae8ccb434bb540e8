import Foundation
import WidgetKit

#if canImport(Glibc)
    import Glibc
#endif

// A WidgetKit extension whose providers use Swift concurrency every way app code does, and
// say on which thread each piece ran (WidgetHostRunnerTests' GlobalExecutorTests run it
// inside the sandbox, as the daemon does):
//
// - "Constructs": `Task {}`, `Task.detached`, `Task.sleep` on each clock and form, a task
//   group, `async let`, `await MainActor.run`, a continuation resumed from a thread of its
//   own, a default actor. Each answers "channel" (the stdin loop's thread, where async
//   provider code runs), "sdk" (a thread of the SDK's global executor) or "other(COMM)".
// - "Pool": keeps Swift concurrency's global executor busy with a backlog of jobs (children
//   that block their thread a little, sleep and hop to the main actor) for 1.3 seconds, past
//   libdispatch's once-a-second worker check; answers how many children finished.

/// The thread's id ("PID/task/TID") and `comm` (the kernel's thread name, at most 15 bytes).
func currentThread() -> (id: String, name: String) {
    let id = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "?"
    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
    return (id, name.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// Where this runs, told apart from the stdin loop's thread `channel`.
func here(channel: String) -> String {
    let thread = currentThread()
    if thread.id == channel { return "channel" }
    return thread.name == "widgetkit-tasks" ? "sdk" : "other(\(thread.name))"
}

/// libdispatch names its worker threads after their root queue, keeping the last 15 bytes:
/// "com.apple.root.default-qos" is `oot.default-qos`, its overcommit twin `-qos.overcommit`.
/// The non-overcommit ones are those its worker monitor watches.
func monitoredDispatchWorkers() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasSuffix("-qos") ? trimmed : nil
    }
}

actor Counter {
    private var value = 0
    func add(_ amount: Int) { value += amount }
    var total: Int { value }
    func where_(channel: String) -> String { here(channel: channel) }
    func sleepThenWhere(channel: String) async -> String {
        try? await Task.sleep(for: .milliseconds(20))
        return here(channel: channel)
    }
}

struct Report: TimelineEntry, Encodable {
    var date = Date()
    /// Construct → where it ran.
    var ran: [String: String] = [:]
    var mainActor = false
    var finished = 0
    var seconds = 0.0
    /// Threads libdispatch's worker monitor watches, seen at the end.
    var dispatchWorkers: [String] = []

    enum CodingKeys: String, CodingKey { case ran, mainActor, finished, seconds, dispatchWorkers }
}

struct ConstructsProvider: TimelineProvider {
    func placeholder(in context: Context) -> Report { Report() }

    func snapshot(in context: Context) async -> Report { Report() }

    func timeline(in context: Context) async -> Timeline<Report> {
        // Async provider code starts on the stdin loop's thread (ChannelExecutor).
        let channel = currentThread().id
        var report = Report()
        report.ran["provider"] = here(channel: channel)
        report.ran["task"] = await Task { here(channel: channel) }.value
        report.ran["detached"] = await Task.detached { here(channel: channel) }.value
        try? await Task.sleep(for: .milliseconds(20))
        report.ran["sleepInProvider"] = here(channel: channel)
        report.ran["detachedSleep"] = await Task.detached {
            try? await Task.sleep(for: .milliseconds(20))
            return here(channel: channel)
        }.value
        report.ran["detachedSleepNanoseconds"] = await Task.detached {
            try? await Task.sleep(nanoseconds: 20_000_000)
            return here(channel: channel)
        }.value
        report.ran["detachedSleepSuspending"] = await Task.detached {
            try? await Task.sleep(for: .milliseconds(20), clock: .suspending)
            return here(channel: channel)
        }.value
        report.ran["detachedSleepUntil"] = await Task.detached {
            try? await Task.sleep(until: .now + .milliseconds(20), clock: .continuous)
            return here(channel: channel)
        }.value
        report.ran["group"] = await Task.detached {
            await withTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { here(channel: channel) } }
                return Set(await group.reduce(into: []) { $0.append($1) }).sorted().joined(separator: ",")
            }
        }.value
        report.ran["groupInProvider"] = await withTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { here(channel: channel) } }
            return Set(await group.reduce(into: []) { $0.append($1) }).sorted().joined(separator: ",")
        }
        report.ran["asyncLet"] = await Task.detached {
            async let first = here(channel: channel)
            async let second = here(channel: channel)
            return Set([await first, await second]).sorted().joined(separator: ",")
        }.value
        report.mainActor = await MainActor.run { true }
        report.ran["afterMainActor"] = here(channel: channel)
        report.ran["continuation"] = await Task.detached {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { continuation.resume() }
            }
            return here(channel: channel)
        }.value
        let counter = Counter()
        report.ran["actor"] = await Task.detached { await counter.where_(channel: channel) }.value
        report.ran["actorSleep"] = await Task.detached { await counter.sleepThenWhere(channel: channel) }.value
        report.dispatchWorkers = monitoredDispatchWorkers()
        return Timeline(entries: [report], policy: .never)
    }
}

struct PoolProvider: TimelineProvider {
    static let seconds = 1.3

    func placeholder(in context: Context) -> Report { Report() }

    func snapshot(in context: Context) async -> Report { Report() }

    func timeline(in context: Context) async -> Timeline<Report> {
        let start = ContinuousClock.now
        let finished = await Task.detached {
            let counter = Counter()
            while ContinuousClock.now - start < .seconds(Self.seconds) {
                // More children than threads, each blocking its thread a little: work waits in
                // the global executor's queue most of the time.
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<24 {
                        group.addTask {
                            usleep(2_000)
                            try? await Task.sleep(for: .milliseconds(1))
                            if index % 8 == 0 { await MainActor.run {} }
                            await counter.add(1)
                        }
                    }
                }
            }
            return await counter.total
        }.value
        var report = Report()
        report.finished = finished
        report.dispatchWorkers = monitoredDispatchWorkers()
        report.seconds = Double((ContinuousClock.now - start).components.seconds)
            + Double((ContinuousClock.now - start).components.attoseconds) / 1e18
        return Timeline(entries: [report], policy: .never)
    }
}

struct ConstructsWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Constructs", provider: ConstructsProvider()) { $0 }
            .supportedFamilies([.systemSmall])
    }
}

struct PoolWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Pool", provider: PoolProvider()) { $0 }
            .supportedFamilies([.systemSmall])
    }
}

@main
struct ConcurrencyFixture: WidgetBundle {
    var body: some Widget {
        ConstructsWidget()
        PoolWidget()
    }
}
