import ArgumentParser
import Foundation
import Logging
import WidgetHostConfiguration
import WidgetHostDaemon
import WidgetHostDriver

@main
struct WidgetHostDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgethostd",
        abstract: "Hosts WidgetKit-style widget extensions and enforces the device's rules.",
        discussion: """
            widgethostd loads widget extensions (NAME.appex bundles under plugins.paths), asks them \
            for timelines, shows the right entry at the right time, and enforces what an iPhone \
            enforces: a 40–70 reloads/day budget per widget, a 30 MB memory limit and a 5 s \
            timeline deadline per extension, and the .atEnd / .after / .never reload policies. \
            Apps and the `widgethost` CLI talk to it over a Unix socket.

            Every setting is in the config file (see config/widgethost.toml for each key and its \
            default); the flags below override it.

            Examples:
              widgethostd --config config/dev.toml          # what `make run` does
              widgethostd --socket /tmp/w.sock --state /tmp/w-state --plugins .build/examples
              widgethostd --state-check                     # is the state database healthy?

            Signals: SIGTERM stops (extensions are stopped and reaped, state is on disk after \
            every step); SIGHUP rescans the plugin directories, like `widgethost rescan`.
            """)

    @Option(name: .long, help: ArgumentHelp("The config file.", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The control socket (socket.path).", valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("The state directory (state.path).", valueName: "dir"))
    var state: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Plugin directories, comma-separated; replaces plugins.paths.", valueName: "dir[,dir]"))
    var plugins: String?

    @Option(name: .long, help: ArgumentHelp("Where app group containers live (app_groups.path).", valueName: "dir"))
    var appGroups: String?

    @Flag(name: .long, help: "Check the state database and print a report, then exit (0 healthy, 1 not).")
    var stateCheck = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run on a virtual clock starting at this RFC 3339 instant; advance it with `widgethost clock advance 2h` "
                + "or `widgethost clock run-until 18:00`. Extensions see it through libfaketime.",
            valueName: "start"))
    var virtualClock: String?

    @Option(name: .long, help: ArgumentHelp("Where the boot id is read (tests simulate a reboot).", visibility: .hidden))
    var bootIdFile: String?

    func run() throws {
        // Before any thread or child exists (sd_listen_fds(3)).
        let listenDescriptor: CInt?
        do {
            listenDescriptor = try SocketActivation.listeningDescriptor()
        } catch {
            throw failure("socket activation: \(error)")
        }

        let configuration = try loadConfiguration()
        if stateCheck {
            let report = SQLiteStateStore.check(directory: configuration.statePath)
            print(report.text)
            throw ExitCode(report.healthy ? 0 : 1)
        }
        // Still before any thread exists: they all inherit the mask (handleSignals()).
        Daemon.blockSignals()

        _ = LoggingSetup.bootstrap(level: Logger.Level(configuration.logLevel))
        let logger = Logger(label: "widgethostd")

        var options = configuration.daemonOptions
        options.listenDescriptor = listenDescriptor
        if let bootIdFile { options.bootIDPath = bootIdFile }
        options.bootID = ProcessInfo.processInfo.environment["WIDGETHOST_BOOT_ID"]
        if let virtualClock {
            guard let start = ISO8601DateFormatter().date(from: virtualClock) else {
                throw failure("--virtual-clock \(virtualClock) is not an RFC 3339 instant; write it as 2026-02-15T08:00:00Z")
            }
            options.virtualClockStart = start
        }
        let daemon: Daemon
        let lock: StateDirectoryLock
        do {
            lock = try StateDirectoryLock(directory: configuration.statePath)
            let store = try SQLiteStateStore(directory: configuration.statePath)
            daemon = try Daemon.make(options: options, store: store, logger: logger)
        } catch {
            throw failure("\(error)")
        }
        do {
            try daemon.start()
        } catch {
            // The process exits with the error; no group shutdown (see below, after wait()).
            throw failure("\(error)")
        }
        daemon.handleSignals()
        try daemon.wait()
        // Everything is stopped, reaped and on disk once wait() returns; the event-loop threads
        // end with the process. NIO's group shutdown would wait on a Dispatch global queue, whose
        // first worker threads call setpriority, which the unit's SystemCallFilter=~@resources
        // refuses, and libdispatch logs "Failed to set thread priority for worker thread" at
        // every stop (ThreadPriorityTests).
        withExtendedLifetime(lock) {}
    }

    private func loadConfiguration() throws -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        do {
            if let config {
                configuration = try DaemonConfiguration.load(contentsOf: config)
            } else if FileManager.default.fileExists(atPath: DaemonConfiguration.defaultPath) {
                configuration = try DaemonConfiguration.load(contentsOf: DaemonConfiguration.defaultPath)
            }
        } catch {
            throw failure("\(error)")
        }
        let overrides = ConfigOverrides(
            socketPath: socket, statePath: state,
            pluginPaths: plugins.map { $0.split(separator: ",").map(String.init) }, appGroupsPath: appGroups)
        return configuration.applying(overrides)
    }

    /// One line on stderr, exit 1 — what systemd shows in `systemctl status`.
    private func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("widgethostd: \(message)\n".utf8))
        return ExitCode(1)
    }
}
