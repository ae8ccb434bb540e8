import Dispatch
import Synchronization

/// Hands one value from whichever thread produces it to a thread blocked waiting for it:
/// how the stdin loop waits for a completion handler. Later values are ignored.
final class Slot<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let filled = DispatchSemaphore(value: 0)

    func fill(_ newValue: Value) {
        let first = value.withLock { current in
            guard current == nil else { return false }
            current = newValue
            return true
        }
        if first { filled.signal() }
    }

    func take() -> Value {
        filled.wait()
        return value.withLock { $0! }
    }
}
