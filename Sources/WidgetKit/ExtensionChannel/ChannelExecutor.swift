import Dispatch
import Synchronization

/// Where the SDK runs an extension's async code (an `AppIntentTimelineProvider`, an intent's
/// `perform()`, an async `TimelineProvider`): on the stdin loop's own thread, while it waits for
/// the answer, instead of on threads the concurrency runtime would start on demand.
///
/// Why: the sandbox caps the tasks (threads) of the extension's user (`RLIMIT_NPROC`, docs/security.md),
/// and a thread the runtime fails to start stops the process. One request runs at a time, so one
/// thread is all the work needs; tasks started with this executor as their preference run their
/// nonisolated async code here, and hop to actors (the main actor, the app's own) and back as usual.
final class ChannelExecutor: TaskExecutor, @unchecked Sendable {
    /// The stdin loop's executor; nil in-process (tests), where the global pool serves.
    static let shared = Mutex<ChannelExecutor?>(nil)

    static var preferred: ChannelExecutor? { shared.withLock { $0 } }

    private let jobs = Mutex<[UnownedJob]>([])
    private let woken = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        woken.signal()
    }

    /// Wakes `run(until:)` to look at its condition again.
    func wake() { woken.signal() }

    /// Runs jobs on the calling thread until `value()` gives one (`wake()` after it can).
    func run<Value>(until value: () -> Value?) -> Value {
        while true {
            if let value = value() { return value }
            woken.wait()
            while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}
