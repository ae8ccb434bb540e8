import Foundation
import SeededRandom
import Synchronization
import Testing

@testable import WidgetKit

/// The deadlines of the SDK's global executor: explicit instants, no clock.
@Suite("Jobs waiting for an instant of the continuous or the suspending clock")
struct JobDeadlinesTests {
    typealias Deadlines = JobDeadlines<String>

    static func at(_ continuous: Duration, _ suspending: Duration) -> (Deadlines.Clock) -> Duration {
        { $0 == .continuous ? continuous : suspending }
    }

    @Test("Earliest first; equal instants in the order they came")
    func order() {
        var deadlines = Deadlines()
        deadlines.insert("c", at: .seconds(3), on: .continuous)
        deadlines.insert("a", at: .seconds(1), on: .continuous)
        deadlines.insert("b1", at: .seconds(2), on: .continuous)
        deadlines.insert("b2", at: .seconds(2), on: .continuous)
        deadlines.insert("b3", at: .seconds(2), on: .continuous)
        #expect(deadlines.removeDue(now: Self.at(.milliseconds(999), .zero)) == [])
        #expect(deadlines.removeDue(now: Self.at(.seconds(2), .zero)) == ["a", "b1", "b2", "b3"])
        #expect(deadlines.count == 1)
        #expect(deadlines.removeDue(now: Self.at(.seconds(10), .zero)) == ["c"])
        #expect(deadlines.isEmpty)
    }

    @Test("Each deadline is read on its own clock: the continuous clock runs ahead while the machine sleeps")
    func clocksApart() {
        var deadlines = Deadlines()
        // Both clocks read 100 s when these are queued, 5 s ahead.
        deadlines.insert("continuous", at: .seconds(105), on: .continuous)
        deadlines.insert("suspending", at: .seconds(105), on: .suspending)
        // The machine slept 10 s: only the continuous clock counted them.
        #expect(deadlines.untilEarliest(now: Self.at(.seconds(111), .seconds(101))) == .zero)
        #expect(deadlines.removeDue(now: Self.at(.seconds(111), .seconds(101))) == ["continuous"])
        #expect(deadlines.untilEarliest(now: Self.at(.seconds(111), .seconds(101))) == .seconds(4))
        #expect(deadlines.removeDue(now: Self.at(.seconds(115), .seconds(105))) == ["suspending"])
    }

    @Test("How long to wait: until the earliest of either clock, zero once one is due, nil with none")
    func untilEarliest() {
        var deadlines = Deadlines()
        #expect(deadlines.untilEarliest(now: Self.at(.zero, .zero)) == nil)
        deadlines.insert("late", at: .seconds(30), on: .continuous)
        deadlines.insert("soon", at: .seconds(12), on: .suspending)
        #expect(deadlines.untilEarliest(now: Self.at(.seconds(20), .seconds(10))) == .seconds(2))
        #expect(deadlines.untilEarliest(now: Self.at(.seconds(20), .seconds(50))) == .zero)
    }

    @Test("A thousand deadlines in a shuffled order come out sorted", arguments: [1, 2, 3])
    func heap(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var deadlines = JobDeadlines<Int>()
        for value in (0..<1000).shuffled(using: &generator) {
            deadlines.insert(value, at: .milliseconds(value), on: value % 2 == 0 ? .continuous : .suspending)
        }
        var out: [Int] = []
        for step in stride(from: 0, through: 1000, by: 7) {
            out += deadlines.removeDue { _ in .milliseconds(step) }.sorted()
        }
        out += deadlines.removeDue { _ in .seconds(5) }.sorted()
        #expect(out == Array(0..<1000))
    }
}

#if os(Linux)
    final class Recorder: Sendable {
        let values = Mutex<[Int]>([])
    }

    /// The SDK's global executor, in this process as a task executor preference and fed work
    /// directly (the hooks and the factory that make it the global and default executor, and
    /// so where `Task.sleep` wakes, are installed only in an extension process:
    /// GlobalExecutorTests in WidgetHostRunnerTests runs one).
    @Suite("The SDK's global executor runs tasks on its own threads")
    struct SDKGlobalExecutorTests {
        @Test("Tasks and their children run on its threads")
        func tasks() async throws {
            let executor = GlobalExecutor(maximumThreads: 2)
            let places = await Task(executorPreference: executor) {
                var places: [String: Bool] = ["start": executor.isCurrentThread]
                places["children"] = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<16 { group.addTask { executor.isCurrentThread } }
                    return await group.allSatisfy { $0 }
                }
                async let child = executor.isCurrentThread
                places["asyncLet"] = await child
                return places
            }.value
            #expect(places == ["start": true, "children": true, "asyncLet": true])
            #expect(executor.threadCount <= 2)
        }

        @Test("Work queued for an instant runs on its threads, no earlier than that instant", arguments: [1, 2])
        func deadline(clock: Int32) async throws {
            let executor = GlobalExecutor(maximumThreads: 1)
            let clockID = try #require(GlobalExecutor.DeadlineClock(rawValue: clock))
            let queued = GlobalExecutor.now(clockID)
            let (waited, onItsThread) = await withCheckedContinuation { continuation in
                executor.enqueue(.closure { continuation.resume(returning: (GlobalExecutor.now(clockID) - queued, executor.isCurrentThread)) },
                    at: queued + .milliseconds(150), on: clockID)
            }
            #expect(waited >= .milliseconds(150))
            #expect(waited < .seconds(2))
            #expect(onItsThread)
        }

        @Test("Work queued for instants runs in deadline order, whatever its clock and the order it came in")
        func deadlineOrder() async throws {
            let executor = GlobalExecutor(maximumThreads: 1)
            let order = Recorder()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                for (index, milliseconds) in [120, 40, 80, 0].enumerated() {
                    let clock: GlobalExecutor.DeadlineClock = index % 2 == 0 ? .continuous : .suspending
                    executor.enqueue(
                        .closure {
                            let count = order.values.withLock { $0.append(milliseconds); return $0.count }
                            if count == 4 { done.resume() }
                        }, at: GlobalExecutor.now(clock) + .milliseconds(milliseconds), on: clock)
                }
            }
            #expect(order.values.withLock { $0 } == [0, 40, 80, 120])
        }

        @Test("More jobs than threads wait their turn: the threads stop at the cap, and every job runs")
        func cap() async throws {
            let executor = GlobalExecutor(maximumThreads: 3)
            let finished = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<60 {
                    group.addTask(executorPreference: executor) {
                        usleep(1_000)
                        return executor.isCurrentThread ? 1 : 0
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(finished == 60)
            #expect(executor.threadCount == 3)
        }

        @Test("A job that blocks its thread until another task finishes does not stall the executor")
        func blockingJob() async throws {
            let executor = GlobalExecutor(maximumThreads: 2)
            let answer = await Task(executorPreference: executor) {
                let slot = Slot<Int>()
                Task(executorPreference: executor) { slot.fill(42) }
                return slot.take()
            }.value
            #expect(answer == 42)
        }
    }
#endif
