import Foundation

/// The refresh budget as a sliding window: at any moment, the budgeted reloads *started*
/// in the last `window` number at most B. A start at `s` counts while `now - window < s ≤ now`.
public enum SlidingWindowBudget {
    /// Budgeted starts still inside the window at `now`.
    public static func used(_ ledger: [Date], window: TimeInterval, at now: Date) -> Int {
        ledger.reduce(0) { $0 + (isInWindow($1, window: window, at: now) ? 1 : 0) }
    }

    /// The first moment at or after `now` when fewer than `limit` starts are in the window:
    /// `now` if there is room, otherwise when enough of the oldest starts have aged out.
    public static func nextFreeSlot(_ ledger: [Date], limit: Int, window: TimeInterval, at now: Date) -> Date {
        // Counted first without building an array: the window usually has room.
        var count = 0
        for start in ledger where isInWindow(start, window: window, at: now) { count += 1 }
        guard count >= limit else { return now }
        let inWindow = ledger.filter { isInWindow($0, window: window, at: now) }.sorted()
        // Once inWindow[count - limit] ages out, count - limit + 1 starts have left: room for one.
        return inWindow[inWindow.count - limit] + window
    }

    /// Drops starts that can never count again.
    public static func pruned(_ ledger: [Date], window: TimeInterval, at now: Date) -> [Date] {
        ledger.filter { $0 > now - window }
    }

    /// `pruned`, in place.
    public static func prune(_ ledger: inout [Date], window: TimeInterval, at now: Date) {
        let oldest = now - window
        ledger.removeAll { !($0 > oldest) }
    }

    private static func isInWindow(_ start: Date, window: TimeInterval, at now: Date) -> Bool {
        start > now - window && start <= now
    }
}
