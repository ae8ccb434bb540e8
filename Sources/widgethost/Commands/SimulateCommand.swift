import ArgumentParser
import Foundation
import Synchronization
import WidgetHostHarness
#if canImport(Glibc)
import Glibc
#endif

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a scenario on a virtual clock and report when each widget runs out of budget.",
        discussion: """
            The same host rules as widgethostd, on a clock that jumps to the next event whenever \
            no extension request is running: a day takes seconds. Synthetic providers answer in \
            process; real extensions (extension = "X.appex") are started per request under \
            libfaketime, so Date() in them sees the simulated time, while their 5 s deadline and \
            30 MiB memory limit stay real. docs/harness.md describes every scenario key.

            The table shows, per widget: B, reload requests, budgeted and exempt reloads, \
            coalesced and deferred requests, when the budget first ran out, how long reloads \
            waited in total and at most, and timeouts, memory kills and crashes.

            Examples:
              widgethost simulate scenarios/strategic.toml
              widgethost simulate scenarios/mixed-home-screen.toml --svg day.svg
              widgethost simulate scenarios/on-demand.toml --seed 7 --json | jq '.widgets[0]'
              widgethost simulate scenarios/aggressive.toml --budget 40

            Exit status: 0 done; 64 usage error; 65 the scenario is invalid (the message names \
            the file, line and key); 66 the scenario file cannot be read; 70 the simulation failed.
            """
    )

    @Argument(help: ArgumentHelp("The scenario file (TOML).", valueName: "scenario"))
    var scenario: String

    @Flag(name: .long, help: "Print the figures and the full event log as JSON instead of the table.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Also draw the simulated period as an SVG file.", valueName: "file"))
    var svg: String?

    @Option(name: .long, help: ArgumentHelp("Seed for random schedules (per_day); overrides simulation.seed.", valueName: "n"))
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("Pin every widget's daily budget B (compare B = 40 with B = 70).", valueName: "B"))
    var budget: Int?

    func validate() throws {
        if let budget, budget < 1 { throw ValidationError("--budget must be at least 1, not \(budget)") }
    }

    func run() throws {
        var loaded: Scenario
        do {
            loaded = try Scenario.load(contentsOf: scenario)
        } catch {
            Console.error("widgethost: \(error)")
            throw ExitCode(error.kind == .fileNotFound || error.kind == .unreadable ? 66 : 65)
        }
        if let budget {
            for index in loaded.widgets.indices { loaded.widgets[index].budget = budget }
        }
        let progress = ProgressLine()
        let result: SimulationResult
        do {
            result = try Simulation.run(
                loaded, options: Simulation.Options(seed: seed, keepEventLog: json, progress: progress.update))
        } catch {
            progress.clear()
            Console.error("widgethost: \(error)")
            throw ExitCode(70)
        }
        progress.clear()
        if let svg {
            do {
                try result.svg(timeZone: loaded.timeZone).write(toFile: svg, atomically: true, encoding: .utf8)
            } catch {
                Console.error("widgethost: cannot write \(svg): \(error.localizedDescription)")
                throw ExitCode(73)
            }
        }
        if json {
            FileHandle.standardOutput.write(try result.json())
        } else {
            FileHandle.standardOutput.write(Data(result.text(timeZone: loaded.timeZone).utf8))
        }
    }
}

/// "simulating 2026-02-15T09:30:00Z (40%)" on stderr, rewritten in place, only on a terminal
/// and at most ten times a second, so pipes and logs stay clean.
final class ProgressLine: Sendable {
    private let enabled = isatty(STDERR_FILENO) == 1
    private let last = Mutex<Double>(0)

    var update: @Sendable (Date, Double) -> Void {
        { [self] time, done in
            guard enabled else { return }
            let now = ProcessInfo.processInfo.systemUptime
            let due = last.withLock { last in
                guard now - last >= 0.1 else { return false }
                last = now
                return true
            }
            guard due else { return }
            let text = "\rsimulating \(ISO8601DateFormatter().string(from: time)) (\(Int(done * 100))%)"
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
