import ArgumentParser
import Foundation

/// widgethost-bench: every figure of docs/benchmarks.md, each beside the floor it chases,
/// measured in one run. `make bench` builds in release and runs this.
@main
struct WidgetHostBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgethost-bench",
        abstract: "Measures every figure of docs/benchmarks.md beside the floor it chases.",
        discussion: """
            Progress goes to stderr, the table to stdout, the numbers to --json. Instruction \
            counts (callgrind) come with figures 1, 2, 6 and 7 when valgrind is installed. A full \
            run takes about five minutes on 2 cores; `make bench` builds in release first.

            Figures: reload (1), throughput (2), idle (3-4), core (5), peer (6), harness (7).
            """)

    /// The figures `--skip` knows, in the order they run.
    static let figures = ["reload", "throughput", "idle", "core", "peer", "harness"]

    @Flag(help: "Fewer iterations and shorter windows: a smoke run, not a record.")
    var quick = false

    @Option(help: ArgumentHelp("Where the numbers go (a partial run should not replace the record).", valueName: "file"))
    var json = "Benchmarks/results/latest.json"

    @Option(help: ArgumentHelp("The peer comparison's window (default 60, 10 with --quick).", valueName: "seconds"))
    var peerWindow: Double?

    @Option(help: ArgumentHelp("The idle wake-up window (default 60, issue 16's target; 5 with --quick).", valueName: "seconds"))
    var idleWindow: Double?

    @Option(
        help: ArgumentHelp("Figures not to run, comma-separated: \(figures.joined(separator: ", ")).", valueName: "figure,..."),
        transform: { text in text.split(separator: ",").map(String.init) })
    var skip: [String] = []

    func validate() throws {
        if let unknown = skip.first(where: { !Self.figures.contains($0) }) {
            throw ValidationError("unknown figure '\(unknown)' in --skip; the figures are \(Self.figures.joined(separator: ", "))")
        }
        for (name, value) in [("--peer-window", peerWindow), ("--idle-window", idleWindow)] {
            if let value, !(value > 0) { throw ValidationError("\(name) should be a positive number of seconds") }
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        do {
            try measure()
        } catch {
            log("failed: \(error)")
            throw ExitCode.failure
        }
    }

    private func measure() throws {
        try Binaries.check()
        let skipped = Set(skip)
        let runStart = monotonicSeconds()
        var hostname = [CChar](repeating: 0, count: 256)
        gethostname(&hostname, hostname.count)
        var report = Report(
            date: ISO8601DateFormatter().string(from: Date()),
            host: String(decoding: hostname.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            cores: ProcessInfo.processInfo.activeProcessorCount, quick: quick)

        var status: ControlThroughput.DaemonRun?
        if !skipped.contains("reload") {
            status = try Figures.reload(into: &report, quick: quick, measureThroughput: !skipped.contains("throughput"))
        }
        if !skipped.contains("throughput") { try Figures.throughput(into: &report, quick: quick, daemonRun: status) }
        if !skipped.contains("idle") {
            try Figures.idleAndFootprint(into: &report, quick: quick, window: idleWindow ?? (quick ? 5 : 60))
        }
        if !skipped.contains("core") { Figures.core(into: &report, quick: quick) }
        if !skipped.contains("peer") { try Figures.peer(into: &report, quick: quick, window: peerWindow ?? (quick ? 10 : 60)) }
        if !skipped.contains("harness") { try Figures.harness(into: &report, quick: quick) }

        report.totalSeconds = monotonicSeconds() - runStart
        print(report.table(), terminator: "")
        print(
            String(
                format: "total %.0f s on %d cores%@; written to %@", report.totalSeconds, report.cores,
                quick ? " (--quick)" : "", json))
        try report.write(to: json)
    }
}
