import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import WidgetHostClient
import WidgetHostProtocol

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Watch what the host does, one line per event, until interrupted.",
        discussion: """
            Follows the daemon's event stream: widgets added and removed, reloads started \
            (budgeted or exempt, and why), coalesced and deferred (until when, and why), \
            finished (success, timedOut, memoryLimitExceeded, crashed, …, with duration and \
            footprint), entries changing on screen, and diagnostics. Stop it with Ctrl-C (exit \
            status 0); if the daemon stops, it says so and exits 69.

            --json prints each event as one JSON object per line, for jq.

            Examples:
              widgethost events
              widgethost events --json | jq 'select(.type == "reloadDeferred")'
            """
    )

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        Self.stopOnInterrupt()
        let end = try connection.withClient { client in
            try client.subscribe { notice in
                if connection.json {
                    try Console.outputJSONLine(notice)
                } else {
                    Console.output(EventText.line(notice))
                }
                return true
            }
        }
        if end == .closed {
            Console.error("widgethost: widgethostd at \(connection.socketPath) closed the event stream (it stopped or restarted)")
            throw ExitCode(Failure.unavailable)
        }
    }

    /// Ctrl-C (SIGINT) or SIGTERM is how `events` normally ends: exit 0 at once. The signals
    /// are unblocked first because a parent may spawn us with them blocked (Foundation's
    /// `Process` does), and then nothing but SIGKILL could stop the stream.
    private static func stopOnInterrupt() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        _ = signal(SIGINT) { _ in _exit(0) }
        _ = signal(SIGTERM) { _ in _exit(0) }
    }
}
