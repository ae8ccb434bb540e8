import Foundation
import HeapModule

/// What a deadline belongs to: a widget (a deferred or due reload, an entry change) or an
/// extension (a request's timeout, an idle stop).
public enum DeadlineOwner: Sendable, Hashable, Comparable {
    case widget(WidgetID)
    case `extension`(String)
    /// A Live Activity's next stale date, 8-hour end or dismissal.
    case activity(String)

    /// Case order first (widgets, extensions, activities), then the payload — what the
    /// synthesized comparison does, written out: deadlines often tie (widgets added together
    /// fall due together), so the heap compares owners on nearly every step.
    public static func < (lhs: DeadlineOwner, rhs: DeadlineOwner) -> Bool {
        if case .widget(let l) = lhs, case .widget(let r) = rhs { return l < r }
        if case .extension(let l) = lhs, case .extension(let r) = rhs { return l < r }
        if case .activity(let l) = lhs, case .activity(let r) = rhs { return l < r }
        return lhs.caseOrder < rhs.caseOrder
    }

    private var caseOrder: Int {
        switch self {
        case .widget: 0
        case .extension: 1
        case .activity: 2
        }
    }
}

/// One deadline per owner, earliest first. Rescheduling pushes a new heap item and leaves
/// the old one to be skipped when it surfaces, so every operation is O(log n) and
/// `next` is O(1) — the host asks for it after every step.
struct DeadlineQueue: Sendable {
    private struct Item: Comparable {
        var at: Date
        var owner: DeadlineOwner
        static func < (lhs: Item, rhs: Item) -> Bool {
            if lhs.at != rhs.at { return lhs.at < rhs.at }
            return lhs.owner < rhs.owner
        }
    }

    private var heap = Heap<Item>()
    private var scheduled: [DeadlineOwner: Date] = [:]

    var next: Date? { heap.min?.at }
    var count: Int { scheduled.count }

    func deadline(of owner: DeadlineOwner) -> Date? { scheduled[owner] }

    mutating func schedule(_ owner: DeadlineOwner, at date: Date?) {
        // One lookup: the owner's previous deadline comes back from the write.
        let previous = if let date { scheduled.updateValue(date, forKey: owner) } else { scheduled.removeValue(forKey: owner) }
        guard previous != date else { return }
        // The top is never stale between calls; only this owner's old item has become stale,
        // so the top needs dropping only when it is that item.
        if let previous, let top = heap.min, top.owner == owner, top.at == previous {
            heap.removeMin()
            if let date { heap.insert(Item(at: date, owner: owner)) }
            dropStaleTop()
        } else if let date {
            heap.insert(Item(at: date, owner: owner))
        }
        // Keep the heap from filling with stale items when owners reschedule often.
        if heap.count > 2 * scheduled.count + 64 {
            heap = Heap(scheduled.map { Item(at: $0.value, owner: $0.key) })
        }
    }

    /// Removes and returns every owner whose deadline is at or before `now`, earliest first.
    mutating func popDue(at now: Date) -> [DeadlineOwner] {
        var due: [DeadlineOwner] = []
        while let top = heap.min, top.at <= now {
            heap.removeMin()
            if let slot = scheduled.index(forKey: top.owner), scheduled.values[slot] == top.at {
                scheduled.remove(at: slot)
                due.append(top.owner)
            }
        }
        dropStaleTop()
        return due
    }

    private mutating func dropStaleTop() {
        while let top = heap.min, scheduled[top.owner] != top.at { heap.removeMin() }
    }
}
