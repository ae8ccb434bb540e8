import Foundation

// This is `widgethost-cli`, the full CLI. `widgethost` is its front (Sources/widgethost-front),
// which sends the simple reloads itself without loading Foundation, and execs this program
// for everything else, with the same arguments; with a reload it has already sent, it passes
// the connection (`ResumedRequest`).
//
// `widgethost reload --kind K` here also skips swift-argument-parser: building and reflecting
// over the command tree was half the instructions of the CLI's whole run (17.1 M of 34.1 M,
// callgrind, issue 16). Anything else, including every form the parser would refuse or
// explain (--help), goes to the parser, so behaviour and exit codes do not change.
let resumed: ResumedRequest?
do { resumed = try ResumedRequest.take() } catch {
    Console.error("widgethost: \(error)")
    exit(70)  // EX_SOFTWARE
}
let arguments = Array(CommandLine.arguments.dropFirst())
if let status = ReloadFastPath.run(arguments, environment: ReloadFastPath.environment(), resumed: resumed) {
    exit(status)
}
if resumed != nil {
    // The front sent a reload that this program does not recognise: the two disagree.
    Console.error("widgethost: the front handed over a reload this CLI does not recognise: \(arguments)")
    exit(70)
}
WidgetHostCommand.main()
