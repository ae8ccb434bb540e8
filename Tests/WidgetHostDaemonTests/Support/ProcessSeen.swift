import Foundation
import Synchronization
import WidgetHostRunner
@testable import WidgetHostDaemon

/// What a process started in a test (`ProcessPipes.start`) said on stderr, and whether its exit
/// has been reported: `record` is the handler to start it with.
final class ProcessSeen: Sendable {
    let lines = Mutex<[String]>([])
    let exited = Mutex(false)
    var all: [String] { lines.withLock { $0 } }
    var hasExited: Bool { exited.withLock { $0 } }

    func record(_ event: ProcessEvent) {
        switch event {
        case .stderr(let line): lines.withLock { $0.append(line) }
        case .exited: exited.withLock { $0 = true }
        default: break
        }
    }

    /// Returns once the exit has been reported, or after 10 s.
    func waitForExit() {
        let deadline = Date().addingTimeInterval(10)
        while !hasExited, Date() < deadline { usleep(5_000) }
    }
}
