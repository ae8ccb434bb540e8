import NIOCore
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

extension ProcessPipes {
    /// `InitializeProbe` on the event loop: starts `launch`, waits for `initialize`'s answer
    /// without blocking the loop (every bundle of a scan is probed at once), and stops the
    /// process as soon as it has answered.
    static func probe(
        _ launch: ExtensionLaunch, limits: ExtensionLimits, spawner: ProcessSpawner, in table: ProcessTable
    ) -> EventLoopFuture<Result<InitializeResult, InitializeProbe.Failure>> {
        let eventLoop = table.eventLoop
        eventLoop.preconditionInEventLoop()
        let promise = eventLoop.makePromise(of: Result<InitializeResult, InitializeProbe.Failure>.self)
        var answered = false
        var process: ProcessPipes?
        // Cancelled with the answer: left pending, it woke an idle daemon 5 s after each scan.
        // Cancelled, it does not: NIO's timerfd, armed for it while the loop waited for the
        // answer, is set again 5 ms ahead by the reaper `terminate` starts in the same turn
        // (the process is alive then: its exit is only seen after its output), which replaces
        // the 5 s setting (ProcessPipes.reapTask says why that matters; IdleTests measures it).
        var deadline: Scheduled<Void>?
        let finish = { (result: Result<InitializeResult, InitializeProbe.Failure>) in
            guard !answered else { return }
            answered = true
            deadline?.cancel()
            process?.terminate(grace: .milliseconds(500))
            promise.succeed(result)
        }
        do {
            process = try ProcessPipes.start(
                launch, limits: InitializeProbe.limits(limits), sampleInterval: nil, spawner: spawner, in: table
            ) { event in
                guard case .initialized(let answer) = event else { return }
                finish(InitializeProbe.widgets(answer.mapError { .failed($0) }))
            }
        } catch {
            // The promise must be completed either way (NIO traps on a leaked promise).
            answered = true
            promise.succeed(.failure(.notStarted(error.description)))
            return promise.futureResult
        }
        let timeout = TimeAmount.nanoseconds(Int64(InitializeProbe.timeout * 1_000_000_000))
        deadline = eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            finish(.failure(.failed(.timedOut(elapsed: InitializeProbe.timeout))))
            process?.kill()
        }
        return promise.futureResult
    }
}
