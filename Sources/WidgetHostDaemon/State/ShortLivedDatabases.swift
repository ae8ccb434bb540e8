import GRDB
import Synchronization

/// The few database connections widgethostd opens for a moment at start-up (creating the
/// file, probing it, reading SQLite's compile options), kept instead of released once
/// closed.
///
/// Why: releasing a GRDB `DatabaseQueue` disposes its `DispatchQueue`, and on Linux that
/// starts a Dispatch worker thread, whose first start arms libdispatch's worker-pool monitor:
/// a 1 Hz timer that then wakes the daemon every second for as long as it runs
/// (docs/benchmarks.md, "Idle cost"). A closed `DatabaseQueue` holds no file and a few
/// hundred bytes; at most three are kept per process.
enum ShortLivedDatabases {
    private static let kept = Mutex<[DatabaseQueue]>([])

    /// Closes `queue` (errors ignored: it was only read or already checkpointed) and keeps it.
    static func closeAndKeep(_ queue: DatabaseQueue) {
        try? queue.close()
        kept.withLock { $0.append(queue) }
    }
}
