import Foundation

// `widgethost reload --kind K`, the command scripts and key bindings run (i3blocks' peer is
// `pkill -RTMIN+1`), in its simple forms skips swift-argument-parser: building and reflecting
// over the command tree was half the instructions of the CLI's whole run (17.1 M of 34.1 M,
// callgrind, issue 16). Anything else, including every form the parser would refuse or
// explain (--help), goes to the parser, so behaviour and exit codes do not change.
if let status = ReloadFastPath.run(Array(CommandLine.arguments.dropFirst()), environment: ReloadFastPath.environment()) {
    exit(status)
}
WidgetHostCommand.main()
