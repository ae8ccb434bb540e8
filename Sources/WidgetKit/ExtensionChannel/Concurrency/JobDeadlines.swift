/// Jobs waiting for an instant of one of the two clocks `Task.sleep` uses, earliest first and,
/// among equal instants, first in first out. An instant is the runtime's own reading of its
/// clock (`swift_get_time`: seconds and nanoseconds since that clock's origin), so a deadline
/// the runtime hands over (`swift_task_enqueueGlobalWithDeadline`) is kept as it came.
///
/// The two clocks are kept apart because they part ways while the machine sleeps: the
/// continuous clock counts that time (`CLOCK_BOOTTIME`), the suspending clock does not
/// (`CLOCK_MONOTONIC`). Pure: whoever asks passes each clock's current instant.
struct JobDeadlines<Element> {
    /// The runtime's clock ids (`swift_clock_id`), as the deadline hook passes them.
    enum Clock: Int32, CaseIterable, Sendable {
        case continuous = 1
        case suspending = 2
    }

    private var continuous = DeadlineHeap<Element>()
    private var suspending = DeadlineHeap<Element>()
    private var sequence: UInt64 = 0

    var isEmpty: Bool { continuous.isEmpty && suspending.isEmpty }
    var count: Int { continuous.count + suspending.count }

    mutating func insert(_ element: Element, at deadline: Duration, on clock: Clock) {
        sequence += 1
        switch clock {
        case .continuous: continuous.insert(element, at: deadline, sequence: sequence)
        case .suspending: suspending.insert(element, at: deadline, sequence: sequence)
        }
    }

    /// Removes and returns every element whose deadline is at or before `now` of its clock,
    /// in the order they were due (for each clock; the continuous clock's first).
    mutating func removeDue(now: (Clock) -> Duration) -> [Element] {
        var due: [Element] = []
        if !continuous.isEmpty { continuous.removeDue(before: now(.continuous), into: &due) }
        if !suspending.isEmpty { suspending.removeDue(before: now(.suspending), into: &due) }
        return due
    }

    /// How long until the earliest deadline (zero when one is already due); nil when empty.
    func untilEarliest(now: (Clock) -> Duration) -> Duration? {
        var wait: Duration?
        if let deadline = continuous.earliest { wait = max(.zero, deadline - now(.continuous)) }
        if let deadline = suspending.earliest {
            let other = max(.zero, deadline - now(.suspending))
            wait = wait.map { min($0, other) } ?? other
        }
        return wait
    }
}

/// A binary min-heap on (deadline, sequence).
private struct DeadlineHeap<Element> {
    private struct Item {
        var deadline: Duration
        var sequence: UInt64
        var element: Element

        func precedes(_ other: Item) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var items: [Item] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var earliest: Duration? { items.first?.deadline }

    mutating func insert(_ element: Element, at deadline: Duration, sequence: UInt64) {
        items.append(Item(deadline: deadline, sequence: sequence, element: element))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].precedes(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeDue(before now: Duration, into due: inout [Element]) {
        while let first = items.first, first.deadline <= now {
            due.append(first.element)
            removeFirst()
        }
    }

    private mutating func removeFirst() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < items.count, items[left].precedes(items[first]) { first = left }
            if right < items.count, items[right].precedes(items[first]) { first = right }
            if first == parent { return }
            items.swapAt(parent, first)
            parent = first
        }
    }
}
