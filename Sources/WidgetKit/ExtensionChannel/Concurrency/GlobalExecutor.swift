#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    import Foundation
    // SchedulingExecutor: where `Task.sleep` puts its wake-up when it runs on this executor.
    @_spi(ExperimentalScheduling) import _Concurrency

    /// Swift concurrency's global executor in an extension process: a few threads of the
    /// SDK's own, started when work comes, with one queue of ready jobs and the jobs that wait
    /// for an instant (`Task.sleep`), instead of libdispatch's global queues.
    ///
    /// Why (docs/security.md, "Swift concurrency and libdispatch's worker monitor"): on Linux
    /// the runtime's default global executor runs jobs on `dispatch_get_global_queue(qos, 0)`,
    /// whose worker threads register with libdispatch's monitor; once a second, when such a
    /// queue has work waiting, the monitor opens `/proc/TID/stat` of each registered worker
    /// and crashes the process when `open` fails ("workq: registered worker exited
    /// prematurely", SIGILL). The sandbox grants `/proc/self` only, and a thread's
    /// `/proc/TID` lies beside it, so a sandboxed extension whose tasks ran there died in
    /// about one run in five. Threads started here are nobody's but the SDK's: no monitor
    /// reads their `/proc` files.
    ///
    /// `ExtensionMain.run` makes it the global executor (`installInProcess`), before any
    /// other thread starts: `Task {}`, `Task.detached`,
    /// child tasks without a preference, default actors, continuations resumed from anywhere
    /// and the wake-ups of `Task.sleep` all run here. Nothing else installs it: in-process
    /// (the host's tests) the runtime's own executor serves.
    ///
    /// At most `maximumThreads` threads: the sandbox caps the tasks (threads) of the
    /// extension's user (`RLIMIT_NPROC`, `limits.processes`), and a widget's work is small.
    /// More than one, so that a job that blocks its thread waiting for another task (a
    /// semaphore, `WidgetInfo.widgetConfigurationIntent`) does not stall everything. A new
    /// thread starts only when a job arrives and none is idle; idle threads stay (a process
    /// lives from one request to its idle stop). Jobs run in arrival order; priorities are
    /// not kept apart.
    final class GlobalExecutor: TaskExecutor, @unchecked Sendable {
        typealias DeadlineClock = JobDeadlines<Work>.Clock

        /// What a thread runs: a job of Swift concurrency's, or (the tests') a plain closure.
        enum Work {
            case job(UnownedJob)
            case closure(@Sendable () -> Void)
        }

        /// The extension process's global executor, made when `ExtensionMain.run` installs it.
        static let process = GlobalExecutor()
        static let threadName = "widgetkit-tasks"

        let maximumThreads: Int
        private let condition = ThreadCondition()
        // Guarded by `condition`'s mutex.
        private var ready = WorkQueue()
        private var deadlines = JobDeadlines<Work>()
        private var threads: [pthread_t] = []
        /// Threads waiting for work and not yet woken.
        private var idle = 0
        /// Wake-ups handed out that no woken thread has taken yet.
        private var wakes = 0
        private var toldShortage = false

        init(maximumThreads: Int = 4) {
            self.maximumThreads = max(1, maximumThreads)
        }

        /// The threads started so far.
        var threadCount: Int { locked { threads.count } }

        /// Whether the calling thread is one of this executor's.
        var isCurrentThread: Bool {
            let current = pthread_self()
            return locked { threads.contains { pthread_equal($0, current) != 0 } }
        }

        func enqueue(_ job: consuming ExecutorJob) {
            _ = enqueue(UnownedJob(job))
        }

        /// Queues `job` to run as soon as a thread is free. False when no thread runs and
        /// none can be started (`RLIMIT_NPROC`): then nothing would ever run it here.
        @discardableResult
        func enqueue(_ job: UnownedJob) -> Bool {
            enqueue(.job(job))
        }

        @discardableResult
        func enqueue(_ work: Work) -> Bool {
            locked {
                // A waiting thread is woken (it takes the lock after this returns), or one starts.
                guard wakeOrStart() else { return false }
                ready.append(work)
                return true
            }
        }

        /// Queues `job` to run once `clock` reads `deadline` (the runtime's instant of it).
        @discardableResult
        func enqueue(_ job: UnownedJob, at deadline: Duration, on clock: DeadlineClock) -> Bool {
            enqueue(.job(job), at: deadline, on: clock)
        }

        @discardableResult
        func enqueue(_ work: Work, at deadline: Duration, on clock: DeadlineClock) -> Bool {
            locked {
                // A waiting thread looks again at how long to wait; with none, one starts.
                guard wakeOrStart() else { return false }
                deadlines.insert(work, at: deadline, on: clock)
                return true
            }
        }

        /// The runtime's reading of `clock`: the base its deadlines are given in.
        static func now(_ clock: DeadlineClock) -> Duration {
            var seconds: Int64 = 0
            var nanoseconds: Int64 = 0
            runtimeTime(&seconds, &nanoseconds, clock.rawValue)
            return .seconds(seconds) + .nanoseconds(nanoseconds)
        }

        // MARK: Threads

        /// Wakes an idle thread, or starts one if none is idle and the cap allows (hold the lock).
        private func wakeOrStart() -> Bool {
            if idle > 0 {
                idle -= 1
                wakes += 1
                condition.signal()
                return true
            }
            guard threads.count < maximumThreads else { return true }
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let result = pthread_create(&thread, nil, { context in
                Unmanaged<GlobalExecutor>.fromOpaque(context!).takeRetainedValue().work()
            }, context)
            guard result == 0 else {
                Unmanaged<GlobalExecutor>.fromOpaque(context).release()
                if !toldShortage {
                    toldShortage = true
                    StandardError.write(
                        "widgetkit: cannot start a thread for Swift concurrency (errno \(result)): the extension's "
                            + "task limit (limits.processes) is reached; tasks wait for the \(threads.count) running")
                }
                return !threads.isEmpty
            }
            pthread_detach(thread)
            threads.append(thread)
            return true
        }

        /// A thread's life: run ready jobs, move due ones to ready, sleep until the next deadline.
        private func work() -> Never {
            // Foundation names the thread for the kernel too (`comm`, what `top -H` shows).
            Thread.current.name = Self.threadName
            condition.lock()
            while true {
                let due = deadlines.isEmpty ? [] : deadlines.removeDue(now: Self.now)
                if !due.isEmpty {
                    for work in due { ready.append(work) }
                    // This thread takes one; others may take the rest.
                    for _ in 1..<due.count { _ = wakeOrStart() }
                }
                if let work = ready.removeFirst() {
                    condition.unlock()
                    switch work {
                    case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                    case .closure(let closure): closure()
                    }
                    condition.lock()
                    continue
                }
                idle += 1
                if let wait = deadlines.untilEarliest(now: Self.now) {
                    condition.wait(for: wait)
                } else {
                    condition.wait()
                }
                if wakes > 0 { wakes -= 1 } else { idle -= 1 }
            }
        }

        private func locked<Value>(_ body: () -> Value) -> Value {
            condition.lock()
            defer { condition.unlock() }
            return body()
        }
    }

    extension GlobalExecutor: SchedulingExecutor {
        func enqueue<C: Clock>(
            _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
        ) {
            let (ours, delay) = Self.delay(delay, of: clock)
            enqueue(UnownedJob(job), at: Self.now(ours) + delay, on: ours)
        }

        func enqueue<C: Clock>(
            _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
        ) {
            let (ours, delay) = Self.delay(clock.now.duration(to: instant), of: clock)
            enqueue(UnownedJob(job), at: Self.now(ours) + delay, on: ours)
        }

        /// The suspending clock waits on the suspending clock; every other clock on the continuous one.
        static func delay<C: Clock>(_ delay: C.Duration, of clock: C) -> (DeadlineClock, Duration) {
            let clockID: DeadlineClock = clock is SuspendingClock ? .suspending : .continuous
            return (clockID, (delay as? Duration) ?? .zero)
        }
    }

    /// Ready work, first in first out.
    private struct WorkQueue {
        private var jobs: [GlobalExecutor.Work] = []
        private var head = 0

        mutating func append(_ work: GlobalExecutor.Work) { jobs.append(work) }

        mutating func removeFirst() -> GlobalExecutor.Work? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// The runtime's clock reading (`swift_get_time`, exported by libswift_Concurrency): the same
    /// function, and so the same base, as the instants it passes to the deadline hook.
    @_silgen_name("swift_get_time")
    private func runtimeTime(
        _ seconds: UnsafeMutablePointer<Int64>, _ nanoseconds: UnsafeMutablePointer<Int64>, _ clock: Int32)
#endif
