#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    // ExecutorFactory and _createExecutors: Swift 6.3's way to choose the default executor.
    @_spi(ExperimentalCustomExecutors) import _Concurrency

    extension GlobalExecutor {
        /// Makes `GlobalExecutor.process` Swift concurrency's global executor in this process, two
        /// ways, because neither reaches every job on Swift 6.3:
        ///
        /// 1. The runtime's hooks (`nm -D libswift_Concurrency.so | grep hook`), set through
        ///    `dlsym` as swift-nio's `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`
        ///    sets the first:
        ///    - `swift_task_enqueueGlobal_hook`: every job for the global executor (a task
        ///      started or resumed without an actor or a preference, a default actor's turn);
        ///    - `swift_task_enqueueGlobalWithDelay_hook`: a job to run after a delay in
        ///      nanoseconds (libdispatch's uptime clock: the suspending clock here);
        ///    - `swift_task_enqueueGlobalWithDeadline_hook`: a job to run at an instant of the
        ///      runtime's clock `clock` (1 continuous, 2 suspending: `swift_clock_id`), with a
        ///      tolerance, which this executor does not use.
        ///
        ///    Each hook variable holds a Swift-convention function pointer that is called with the
        ///    runtime's own implementation as its last argument; the types below restate the
        ///    runtime's (`ConcurrencyHooks.def`) with `UnownedJob` for `Job *`, as NIO's do. A
        ///    job this executor cannot take (no thread could start, a clock it does not know)
        ///    goes to that implementation, libdispatch, rather than nowhere.
        /// 2. The executor factory (`_createExecutors`, SPI in 6.3): `Task.defaultExecutor`
        ///    becomes this executor. Swift 6.3's `Task.sleep` does not call the deadline hook:
        ///    it asks `Task.currentSchedulingExecutor` (the running executor or the task's
        ///    preference, when either can schedule) and falls back to `Task.defaultExecutor`;
        ///    with only the hooks, a sleep in an actor or under a preference that cannot
        ///    schedule (`ChannelExecutor`) still woke on a libdispatch worker. The main actor's
        ///    executor stays libdispatch's main queue.
        ///
        /// The runtime reads the hook variables without synchronisation, so all this happens
        /// once, before any other thread starts (`ExtensionMain.run`), and never in the host's
        /// own processes or its tests. Returns the names of the hooks that could not be set
        /// (the runtime lacks them, or someone set them first): empty when all were.
        static func installInProcess() -> [String] {
            _createExecutors(factory: SDKExecutorFactory.self)
            let process = dlopen(nil, RTLD_NOW)
            defer { if let process { dlclose(process) } }
            var missed: [String] = []
            /// The hook variable `name`, if the runtime has it and no one has set it yet.
            func unset<Hook>(_ name: String, as type: Hook.Type) -> UnsafeMutablePointer<Hook?>? {
                let variable = dlsym(process, name)?.assumingMemoryBound(to: Hook?.self)
                guard let variable, variable.pointee == nil else {
                    missed.append(name)
                    return nil
                }
                return variable
            }
            unset("swift_task_enqueueGlobal_hook", as: EnqueueGlobalHook.self)?.pointee = { job, original in
                if !GlobalExecutor.process.enqueue(job) { original(job) }
            }
            unset("swift_task_enqueueGlobalWithDelay_hook", as: EnqueueGlobalWithDelayHook.self)?.pointee = {
                delay, job, original in
                let deadline = GlobalExecutor.now(.suspending) + .nanoseconds(Int64(clamping: delay))
                if !GlobalExecutor.process.enqueue(job, at: deadline, on: .suspending) { original(delay, job) }
            }
            unset("swift_task_enqueueGlobalWithDeadline_hook", as: EnqueueGlobalWithDeadlineHook.self)?.pointee = {
                seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
                let deadline = Duration.seconds(seconds) + .nanoseconds(nanoseconds)
                guard let clockID = GlobalExecutor.DeadlineClock(rawValue: clock),
                    GlobalExecutor.process.enqueue(job, at: deadline, on: clockID)
                else {
                    original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
                    return
                }
            }
            return missed
        }

        typealias EnqueueGlobal = @convention(thin) (UnownedJob) -> Void
        typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, EnqueueGlobal) -> Void
        typealias EnqueueGlobalWithDelay = @convention(thin) (UInt64, UnownedJob) -> Void
        typealias EnqueueGlobalWithDelayHook = @convention(thin) (UInt64, UnownedJob, EnqueueGlobalWithDelay) -> Void
        typealias EnqueueGlobalWithDeadline = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
        typealias EnqueueGlobalWithDeadlineHook =
            @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, EnqueueGlobalWithDeadline) -> Void
    }

    /// The extension process's executors: the main actor's as the runtime made it (libdispatch's
    /// main queue, drained on an overcommit thread once the main thread sits in `dispatchMain()`),
    /// and the SDK's global executor as the default one.
    private struct SDKExecutorFactory: ExecutorFactory {
        static var mainExecutor: any MainExecutor { MainActor.executor }
        static var defaultExecutor: any TaskExecutor { GlobalExecutor.process }
    }
#endif
