import Foundation
import WidgetHostDriver
import WidgetHostProtocol

/// Simulated time: it stands still while the harness works and moves only when told, to
/// the next thing due or by the real time an extension process took. Deterministic, unlike
/// a clock that follows the wall clock.
final class SimulationClock: AdjustableClock, @unchecked Sendable {
    private(set) var now: Date

    init(start: Date) {
        now = start
    }

    func jump(to date: Date) {
        now = max(now, date)
    }
}

/// The core's notices, into the report.
final class RecordingSink: NoticeSink {
    var recorder: SimulationRecorder

    init(_ recorder: SimulationRecorder) {
        self.recorder = recorder
    }

    func publish(_ notice: HostNotice) {
        recorder.record(notice)
    }
}
