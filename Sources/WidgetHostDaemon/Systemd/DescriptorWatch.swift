import Foundation
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// One thread blocked in poll(2) on a fixed set of descriptors (the signal pipe, the
/// clock-set timer, the time-zone watch), calling each one's handler on that thread when it
/// becomes readable. The handlers read their descriptor and hop to the event loop.
///
/// Why not Dispatch read and signal sources: on Linux the first Dispatch worker thread
/// starts libdispatch's pool monitor, a 1 Hz timer that then wakes the daemon every second
/// for as long as it runs (docs/benchmarks.md, "Idle cost"). A thread in poll() with no
/// timeout does not wake until something happens.
final class DescriptorWatch: @unchecked Sendable {
    struct Watched {
        let descriptor: CInt
        let handler: () -> Void
    }

    private let watched: [Watched]
    /// Signals this thread unblocks so that it is the one they are delivered to: a parent
    /// may start the daemon with them blocked (Foundation's `Process` does), and every
    /// other thread inherited that mask.
    private let unblocking: [CInt]
    /// Written once by `stop()` to end the poll; read end polled with the others.
    private let stopPipe: [CInt]
    private let finished = ConditionLock(value: false)
    private var started = false

    /// - Throws: `POSIXError` when the stop pipe cannot be made.
    init(_ watched: [Watched], unblocking: [CInt] = []) throws {
        guard let fds = CloseOnExecPipe.make() else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        stopPipe = fds
        self.watched = watched
        self.unblocking = unblocking
    }

    deinit {
        for fd in stopPipe { close(fd) }
    }

    func start(name: String) {
        started = true
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Returns once the thread has left poll(); no handler runs afterwards, so the caller may
    /// close the watched descriptors.
    func stop() {
        guard started else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
        finished.wait(until: true)
        started = false
    }

    private func run() {
        if !unblocking.isEmpty {
            var signals = sigset_t()
            sigemptyset(&signals)
            for number in unblocking { sigaddset(&signals, number) }
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
        var polled = watched.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        polled.append(pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0))
        loop: while true {
            let ready = poll(&polled, nfds_t(polled.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if polled[polled.count - 1].revents != 0 { break }
            for index in watched.indices where polled[index].revents != 0 {
                if polled[index].revents & Int16(POLLNVAL) != 0 { break loop }
                watched[index].handler()
            }
        }
        finished.set(true)
    }
}

/// A Bool guarded by a condition variable: `stop()` waits for the watch thread to finish.
private final class ConditionLock: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Bool

    init(value: Bool) { self.value = value }

    func set(_ newValue: Bool) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    func wait(until wanted: Bool) {
        condition.lock()
        while value != wanted { condition.wait() }
        condition.unlock()
    }
}
