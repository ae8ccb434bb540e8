import Foundation
import WidgetHostProtocol

/// Which entry a widget shows at time t: the latest entry with `date ≤ t`; before the first
/// entry's date the previous timeline's entry stays; with nothing at all, the placeholder.
public enum CurrentEntryRule {
    public static func entry(
        at now: Date, entries: [TimelineEntryPayload], previous: TimelineEntryPayload?,
        placeholder: TimelineEntryPayload?
    ) -> CurrentEntry {
        let index = lastIndex(atOrBefore: now, in: entries)
        if let index { return CurrentEntry(source: .timeline, entry: entries[index]) }
        if let previous { return CurrentEntry(source: .previousTimeline, entry: previous) }
        if let placeholder { return CurrentEntry(source: .placeholder, entry: placeholder) }
        return CurrentEntry(source: .none, entry: nil)
    }

    /// The next moment after `now` when the shown entry changes, if any.
    public static func nextChange(after now: Date, entries: [TimelineEntryPayload]) -> Date? {
        let next = (lastIndex(atOrBefore: now, in: entries) ?? -1) + 1
        return next < entries.count ? entries[next].date : nil
    }

    /// Binary search over entries sorted by date.
    static func lastIndex(atOrBefore now: Date, in entries: [TimelineEntryPayload]) -> Int? {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].date <= now { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
