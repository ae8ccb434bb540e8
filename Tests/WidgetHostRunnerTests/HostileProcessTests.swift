import Foundation
import NIOCore
import NIOPosix
import Testing
import WidgetHostCore
import WidgetHostProtocol
@testable import WidgetHostDaemon
@testable import WidgetHostRunner

/// One misbehaving extension: what it writes (for the session, which is fed bytes), the
/// fixture mode that does it for real (for the two faces), and what the host must make of it.
struct HostileCase: Sendable, CustomTestStringConvertible {
    enum Step: Sendable {
        case stdout(String)
        /// `count` bytes of one line, ended by a newline or not.
        case longLine(count: Int, newline: Bool)
        case sample(bytes: Int)
        case exit(WidgetHostRunner.ExitStatus)
    }

    var mode: String
    var transcript: [Step]
    var expected: String
    var detail: String
    /// A real process shows it within this many seconds of being asked.
    var within: TimeInterval
    var testDescription: String { mode }
}

/// The three ways to run a process: the session fed a transcript, the synchronous face the
/// harness and the doctor drive, and the daemon's event-loop face.
enum Face: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case session, synchronous, eventLoop
    var testDescription: String { rawValue }
}

private let initialized = #"{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[]}}"# + "\n"
private let timelineResult = #"{"entries":[{"date":"2026-02-15T08:00:00Z","content":{"text":"x"}}],"policy":{"type":"never"}}"#
private let maxLine = ExtensionSession.maxLineBytes(FixtureExtension.limits)

@Suite("Hostile extension processes, through the session and both faces", .tags(.process), .serialized)
struct HostileProcessTests {
    static let cases: [HostileCase] = [
        HostileCase(
            mode: "wellBehaved",
            transcript: [.stdout(initialized), .stdout(#"{"jsonrpc":"2.0","id":1,"result":\#(timelineResult)}"# + "\n")],
            expected: "replied", detail: "", within: 2),
        HostileCase(
            mode: "sleeper", transcript: [.stdout(initialized)], expected: "timedOut", detail: "", within: 2.5),
        HostileCase(
            mode: "crasher",
            transcript: [.stdout(initialized), .stdout(#"{"jsonrpc":"2.0","id":1,"result":{"entr"#), .exit(WidgetHostRunner.ExitStatus.exited(3))],
            expected: "crashed", detail: "exited with status 3 before answering timeline/get", within: 2),
        HostileCase(
            mode: "flooder", transcript: [.stdout(initialized), .longLine(count: maxLine + 10, newline: false)],
            expected: "protocolError", detail: "stdout line longer than max_timeline_bytes + 64 KiB", within: 3),
        HostileCase(
            mode: "longLine", transcript: [.stdout(initialized), .longLine(count: maxLine + 10, newline: true)],
            expected: "protocolError", detail: "stdout line longer than max_timeline_bytes + 64 KiB", within: 3),
        HostileCase(
            mode: "allocator", transcript: [.stdout(initialized), .sample(bytes: 64 * 1_048_576)],
            expected: "memoryLimitExceeded", detail: "", within: 2),
        HostileCase(
            mode: "outOfOrder",
            transcript: [.stdout(initialized), .stdout(#"{"jsonrpc":"2.0","id":-1,"result":\#(timelineResult)}"# + "\n")],
            expected: "protocolError", detail: "reply for unknown id -1; the running request is 1", within: 2),
        HostileCase(
            mode: "wrongID",
            transcript: [
                .stdout(initialized), .stdout(#"{"jsonrpc":"2.0","id":987654,"result":\#(timelineResult)}"# + "\n"),
            ],
            expected: "protocolError", detail: "reply for unknown id 987654; the running request is 1", within: 2),
        HostileCase(
            mode: "garbage", transcript: [.stdout(initialized), .stdout("this is not json at all\n")],
            expected: "protocolError", detail: "stdout line is not a JSON-RPC message", within: 2),
        HostileCase(
            mode: "quitter", transcript: [.stdout(initialized), .exit(WidgetHostRunner.ExitStatus.exited(0))],
            expected: "crashed", detail: "exited with status 0 before answering timeline/get", within: 2),
        // The parent exits; its child keeps stdout open for 30 s. The exit counts at once.
        HostileCase(
            mode: "abandoner", transcript: [.stdout(initialized), .exit(WidgetHostRunner.ExitStatus.exited(2))],
            expected: "crashed", detail: "exited with status 2 before answering timeline/get", within: 2),
    ]

    @Test("A misbehaving process comes to the same outcome through each face", arguments: cases, Face.allCases)
    func hostile(_ hostile: HostileCase, face: Face) throws {
        let (outcome, seconds) =
            switch face {
            case .session: (Self.session(hostile), 0.0)
            case .synchronous: try Self.synchronous(hostile)
            case .eventLoop: try Self.eventLoop(hostile)
            }
        #expect(outcome.kind == hostile.expected, "\(outcome)")
        #expect(hostile.detail.isEmpty || "\(outcome)".contains(hostile.detail), "\(outcome)")
        #expect(seconds < hostile.within, "noticed after \(seconds) s")
    }

    // MARK: - Faces

    static func session(_ hostile: HostileCase) -> RequestOutcome {
        let judge = RequestJudge(limits: FixtureExtension.limits)
        var session = ExtensionSession(limits: FixtureExtension.limits)
        _ = session.start()
        _ = session.send(RequestID(1), FixtureExtension.timeline)
        for step in hostile.transcript {
            let events: [ProcessEvent]
            switch step {
            case .stdout(let text): events = Self.events(session.receive(stdout: Array(text.utf8)))
            case .longLine(let count, let newline):
                events = Self.events(
                    session.receive(stdout: [UInt8](repeating: UInt8(ascii: "x"), count: count) + (newline ? [10] : [])))
            case .sample(let bytes): events = [.sampled(bytes: bytes)]
            case .exit(let status): events = Self.events(session.exited(status))
            }
            for event in events {
                if let outcome = judge.take(event, elapsed: 0.1) { return outcome }
            }
        }
        return judge.atDeadline(elapsed: FixtureExtension.limits.timelineTimeout)
    }

    private static func events(_ actions: [ExtensionSession.Action]) -> [ProcessEvent] {
        actions.compactMap { action in
            switch action {
            case .initialized(let result): .initialized(result)
            case .replied(let id, let reply): .replied(id, reply, footprintBytes: nil)
            case .failed(let id, let failure): .failed(id, failure)
            case .stop(let reason): .stopped(reason: reason)
            case .write, .stderr, .note: nil
            }
        }
    }

    static func synchronous(_ hostile: HostileCase) throws -> (RequestOutcome, TimeInterval) {
        let limits = FixtureExtension.limits
        let judge = RequestJudge(limits: limits)
        let process = try ExtensionProcess.start(
            FixtureExtension.launch(hostile.mode), limits: limits, sampleInterval: limits.memorySampleInterval)
        defer { process.kill() }
        process.send(RequestID(1), FixtureExtension.timeline)
        let deadline = process.started + .seconds(limits.timelineTimeout)
        while true {
            guard let event = process.next(until: deadline) else {
                return (judge.atDeadline(elapsed: process.elapsed), process.elapsed)
            }
            if let outcome = judge.take(event, elapsed: process.elapsed) { return (outcome, process.elapsed) }
        }
    }

    static func eventLoop(_ hostile: HostileCase) throws -> (RequestOutcome, TimeInterval) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let table = ProcessTable(eventLoop: loop)
        let limits = FixtureExtension.limits
        let result = try loop.flatSubmit { () -> EventLoopFuture<(RequestOutcome, TimeInterval)> in
            let run = LoopRun(loop: loop, judge: RequestJudge(limits: limits))
            do {
                run.process = try ProcessPipes.start(
                    FixtureExtension.launch(hostile.mode), limits: limits, sampleInterval: limits.memorySampleInterval,
                    spawner: ProcessSpawner(), in: table
                ) { event in
                    if let outcome = run.judge.take(event, elapsed: run.elapsed) { run.finish(outcome) }
                }
            } catch {
                return loop.makeFailedFuture(error)
            }
            run.process?.send(RequestID(1), FixtureExtension.timeline)
            loop.scheduleTask(in: .seconds(Int64(limits.timelineTimeout))) {
                run.finish(run.judge.atDeadline(elapsed: run.elapsed))
            }
            return run.promise.futureResult
        }.wait()
        try loop.flatSubmit { table.stopAll() }.wait()
        return result
    }
}

/// One request on the event loop, confined to it.
private final class LoopRun: @unchecked Sendable {
    let judge: RequestJudge
    let promise: EventLoopPromise<(RequestOutcome, TimeInterval)>
    let started = ContinuousClock.now
    var process: ProcessPipes?
    private var done = false

    init(loop: any EventLoop, judge: RequestJudge) {
        self.judge = judge
        promise = loop.makePromise()
    }

    var elapsed: TimeInterval { ExtensionProcess.seconds(started.duration(to: .now)) }

    func finish(_ outcome: RequestOutcome) {
        guard !done else { return }
        done = true
        process?.kill()
        promise.succeed((outcome, elapsed))
    }
}
