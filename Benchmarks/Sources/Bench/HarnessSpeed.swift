import Foundation
import WidgetHostHarness

/// Figure 7: the budget-exhaustion harness on synthetic providers, in process (the same
/// `Simulation.run` as `widgethost simulate`): 1,000 widgets for a day, and one widget for
/// 10 and 40 days (linear growth allows 4×). Wall seconds are the best of a few runs; the
/// instruction counts are `widgethost simulate` under callgrind, start-up included.
enum HarnessSpeed {
    struct Result {
        var thousandSeconds: Double
        var tenDaysSeconds: Double
        var fortyDaysSeconds: Double
        /// nil without valgrind.
        var thousandInstructions: Double?
        var tenDaysInstructions: Double?
        var fortyDaysInstructions: Double?
    }

    static let thousandWidgets = """
        [simulation]
        start = "2026-02-15T00:00:00Z"
        duration = "24h"

        [[widget]]
        kind = "TickerWidget"
        provider = { policy = "after", every = "15m", work = "20ms" }
        count = 1000
        """

    /// One widget asking for a reload every 15 minutes, with an app reloading it every 10
    /// minutes: the budget runs out each day, so deferrals and coalescing are exercised too.
    static func oneWidget(days: Int) -> String {
        """
        [simulation]
        start = "2026-02-15T00:00:00Z"
        duration = "\(days)d"

        [[widget]]
        kind = "TickerWidget"
        provider = { policy = "after", every = "15m", work = "20ms" }

        [[app]]
        id = "com.example.ticker"
        reloads = [ { kind = "TickerWidget", every = "10m" } ]
        """
    }

    static func run(quick: Bool, countInstructions: Bool) throws -> Result {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = [
            ("thousand", thousandWidgets), ("ten", oneWidget(days: 10)), ("forty", oneWidget(days: 40)),
        ].map { name, text in (name, directory + "/\(name).toml", text) }
        for (_, path, text) in files { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        let runs = quick ? 1 : 3
        func best(_ path: String) throws -> Double {
            let scenario = try Scenario.load(contentsOf: path)
            var seconds = Double.infinity
            for _ in 0..<runs {
                let start = monotonicSeconds()
                _ = try Simulation.run(scenario, options: Simulation.Options(keepEventLog: false))
                seconds = min(seconds, monotonicSeconds() - start)
            }
            return seconds
        }
        var result = Result(
            thousandSeconds: try best(files[0].1), tenDaysSeconds: try best(files[1].1),
            fortyDaysSeconds: try best(files[2].1))
        if countInstructions {
            let environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
            func count(_ path: String) throws -> Double {
                // The full CLI itself: through the front, callgrind would count only the front's exec.
                try Instructions.command(Binaries.fullCLI, ["simulate", path], environment: environment)
            }
            result.thousandInstructions = try count(files[0].1)
            result.tenDaysInstructions = try count(files[1].1)
            result.fortyDaysInstructions = try count(files[2].1)
        }
        return result
    }

    private static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/whbench-harness-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
        return String(cString: made)
    }
}
