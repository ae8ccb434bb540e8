import CSystemd
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP as records on a signalfd, read on the event loop.
///
/// A signalfd sees a signal only while it is blocked — otherwise the kernel delivers it to
/// a thread first. widgethostd blocks them before any thread starts (`block()`), so every
/// thread inherits the mask, and a parent that started it with them blocked changes
/// nothing. Where threads exist that do not block them (a daemon inside a test
/// process), a handler routes one that lands on such a thread to the reading thread, which
/// blocks them, so it reaches the descriptor all the same.
final class SignalDescriptor {
    /// The signals the daemon acts on.
    static let handled: [CInt] = [SIGTERM, SIGINT, SIGHUP]

    let descriptor: CInt
    private let thread: UInt

    /// The thread the handler routes signals to (`pthread_t`); 0 once no one reads them.
    /// Lock-free, so the handler may read it.
    private static let readingThread = Atomic<UInt>(0)

    /// Blocks the handled signals in the calling thread, and so in every thread it starts
    /// from now on.
    static func block() {
        var signals = Self.set(of: handled)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Opens the descriptor for the calling thread, which will read it: the event loop.
    /// - Throws: `POSIXError` when `signalfd` fails.
    init() throws {
        Self.block()
        var signals = Self.set(of: Self.handled)
        descriptor = signalfd(-1, &signals, CInt(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        thread = UInt(pthread_self())
        Self.readingThread.store(thread, ordering: .sequentiallyConsistent)
        for number in Self.handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Only on a thread that does not block the signal. pthread_kill is async-signal-safe.
                let saved = errno
                let thread = SignalDescriptor.readingThread.load(ordering: .sequentiallyConsistent)
                if thread != 0 { pthread_kill(pthread_t(thread), number) }
                errno = saved
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Closes the descriptor. The signals stay blocked and routed nowhere: from then on they
    /// are ignored (a second SIGTERM while the daemon drains).
    deinit {
        _ = Self.readingThread.compareExchange(expected: thread, desired: 0, ordering: .sequentiallyConsistent)
        close(descriptor)
    }

    /// The signal numbers in what a read of the descriptor returned: whole
    /// `struct signalfd_siginfo` records of 128 bytes, the number first.
    static func signals(in bytes: UnsafeRawBufferPointer) -> [CInt] {
        let size = MemoryLayout<signalfd_siginfo>.size
        return stride(from: 0, through: bytes.count - size, by: size).map {
            CInt(bitPattern: bytes.loadUnaligned(fromByteOffset: $0, as: UInt32.self))
        }
    }

    private static func set(of signals: [CInt]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}
