#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if os(Linux)
    /// A mutex and its condition variable, whose timed wait runs on `CLOCK_MONOTONIC` (a
    /// change of the wall clock neither shortens nor stretches it). What `GlobalExecutor`'s
    /// threads sleep on between jobs.
    final class ThreadCondition: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

        init() {
            pthread_mutex_init(mutex, nil)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        func lock() { pthread_mutex_lock(mutex) }
        func unlock() { pthread_mutex_unlock(mutex) }
        /// Wakes one waiting thread (hold the lock).
        func signal() { pthread_cond_signal(condition) }

        /// Waits for `signal` (hold the lock); may return early, as condition variables do.
        func wait() { pthread_cond_wait(condition, mutex) }

        /// Waits for `signal` or for `timeout` to pass (hold the lock).
        func wait(for timeout: Duration) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let (seconds, attoseconds) = timeout.components
            // Beyond a day is as good as forever: the thread looks again when woken.
            let waitSeconds = min(seconds, 86_400)
            var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
            var deadline = timespec(tv_sec: now.tv_sec + Int(waitSeconds), tv_nsec: 0)
            if nanoseconds >= 1_000_000_000 {
                deadline.tv_sec += 1
                nanoseconds -= 1_000_000_000
            }
            deadline.tv_nsec = nanoseconds
            pthread_cond_timedwait(condition, mutex, &deadline)
        }
    }
#endif
