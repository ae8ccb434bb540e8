import NIOCore

/// Runs the HTTP server's tasks on the daemon's event loop, so that the dashboard adds no
/// threads: no Swift concurrency pool, no Dispatch workers (whose `setpriority` calls the
/// system unit's seccomp filter refuses). A task started with this preference — and every
/// child task and default actor it runs — has its jobs enqueued on the loop.
final class EventLoopExecutor: TaskExecutor, @unchecked Sendable {
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
