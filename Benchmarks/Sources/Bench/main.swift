import Foundation

// widgethost-bench: every figure of docs/benchmarks.md, each beside the floor it chases,
// measured in one run. `make bench` builds in release and runs this.
//
//   widgethost-bench [--quick] [--json FILE] [--peer-window SECONDS] [--idle-window SECONDS] [--skip FIGURE,...]
//
// FIGURE: reload, throughput, idle, core, peer, harness. Instruction counts (callgrind) come
// with figures 1, 2, 6 and 7 when valgrind is installed. Progress goes to stderr, the table to stdout.

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let quick = arguments.contains("--quick")
let jsonPath = option("--json", in: arguments) ?? "Benchmarks/results/latest.json"
let peerWindow = option("--peer-window", in: arguments).flatMap(Double.init) ?? (quick ? 10 : 60)
// Issue 16's idle target is 0 wake-ups in 60 s.
let idleWindow = option("--idle-window", in: arguments).flatMap(Double.init) ?? (quick ? 5 : 60)
let skipped = Set((option("--skip", in: arguments) ?? "").split(separator: ",").map(String.init))
signal(SIGPIPE, SIG_IGN)

do {
    try Binaries.check()
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
    if !skipped.contains("idle") { try Figures.idleAndFootprint(into: &report, quick: quick, window: idleWindow) }
    if !skipped.contains("core") { Figures.core(into: &report, quick: quick) }
    if !skipped.contains("peer") { try Figures.peer(into: &report, quick: quick, window: peerWindow) }
    if !skipped.contains("harness") { try Figures.harness(into: &report, quick: quick) }

    report.totalSeconds = monotonicSeconds() - runStart
    print(report.table(), terminator: "")
    print(String(format: "total %.0f s on %d cores%@; written to %@", report.totalSeconds, report.cores,
        quick ? " (--quick)" : "", jsonPath))
    try report.write(to: jsonPath)
} catch {
    log("failed: \(error)")
    exit(1)
}
