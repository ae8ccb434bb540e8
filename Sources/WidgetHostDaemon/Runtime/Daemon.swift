import Foundation
import Logging
import NIOCore
import NIOPosix
import WidgetHostBundles
import WidgetHostConfiguration
import WidgetHostCore
import WidgetHostDashboard
import WidgetHostDriver
import WidgetHostProtocol
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon needs to run, resolved from the config file and flags.
public struct DaemonOptions: Sendable {
    public var host: HostConfiguration
    public var control: ControlSettings
    public var pluginPaths: [String]
    public var appGroupsPath: String
    public var statePath: String
    /// Where the boot id comes from (a test points this at its own file).
    public var bootIDPath = "/proc/sys/kernel/random/boot_id"
    /// The boot id as the service manager saw it (`WIDGETHOST_BOOT_ID=%b` in the unit); wins
    /// over `bootIDPath`. Inside a container `ProtectProc=` gives the service a procfs of its
    /// own, without the container's boot_id that nspawn mounts over the kernel's, so the
    /// file there names the host's boot and a container reboot would look like a restart.
    public var bootID: String?
    /// A listening socket handed over by systemd (socket activation), instead of binding.
    public var listenDescriptor: CInt?
    /// The time-zone file watched for significant time changes (a test points this at its own file).
    public var localtimePath = "/etc/localtime"
    /// The smallest clock set, in seconds either way, that is a significant time change (a
    /// test sets 0: it sets the clock to its own time).
    public var minimumClockSet: TimeInterval = 1
    /// `--virtual-clock START`: run on a virtual clock from START, advanced by the `clock` method.
    public var virtualClockStart: Date?
    /// `dashboard.listen`: the HTTP dashboard and `/metrics`; nil serves none.
    public var dashboard: DashboardSettings.ListenAddress?
    /// `limits.cgroup`. Off unless the config says otherwise: `auto` moves the daemon's own
    /// process into a leaf cgroup, which a test process must not do to itself.
    public var cgroup = CgroupMode.off

    public init(
        host: HostConfiguration, control: ControlSettings, pluginPaths: [String], appGroupsPath: String,
        statePath: String
    ) {
        self.host = host
        self.control = control
        self.pluginPaths = pluginPaths
        self.appGroupsPath = appGroupsPath
        self.statePath = statePath
    }
}

/// widgethostd assembled: one event loop, the runtime around the core, the plugin
/// catalog, the control socket. `start()` returns once the socket accepts connections and
/// the plugins are loaded (the moment systemd's READY=1 means).
public final class Daemon: @unchecked Sendable {
    public let options: DaemonOptions
    let logger: Logger
    let group: MultiThreadedEventLoopGroup
    let runtime: HostRuntime
    private var server: ControlServer?
    private let scanBundles: @Sendable () -> BundleScan
    private let stopped: EventLoopPromise<Void>
    /// READY/STATUS/RELOADING/STOPPING and the watchdog.
    let systemd: SystemdService
    // On the event loop, from start() (handleSignals()) to stop():
    private var timeChanges: TimeChangeMonitor?
    private var signals: SignalWatch?
    /// The dashboard, once listening (from start()).
    public private(set) var dashboard: DashboardServer?

    /// Loads the persisted state from `store` (refusing an unreadable or newer one) and
    /// prepares everything; nothing runs until `start()`.
    init(
        options: DaemonOptions, store: any StateStore, clock: any HostClock = WallClock(), logger: Logger,
        scanBundles: @escaping @Sendable () -> BundleScan
    ) throws(StateError) {
        self.options = options
        self.logger = logger
        self.scanBundles = scanBundles
        var state = try store.load()
        let restored = state?.widgets.count
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let host =
            state.map {
                WidgetHost(configuration: options.host, restoring: $0.host, widgets: $0.widgets, activities: $0.activities)
            }
            ?? WidgetHost(configuration: options.host)
        // The host keeps its own copies: the loaded array, and what decoding it left free in
        // the heap, go back to the system before the daemon settles (docs/benchmarks.md, figure 4).
        state = nil
        HeapTrim.returnFreeMemory()
        runtime = HostRuntime(host: host, clock: clock, store: store, eventLoop: loop, logger: logger)
        runtime.supervisor.cgroups = ExtensionCgroups.make(
            mode: options.cgroup, memoryLimit: options.host.limits.memory, processLimit: options.host.limits.processes,
            eventLoop: loop, logger: logger)
        // With pids.max in each extension's cgroup the process limit holds even for uid 0.
        var sandbox = SandboxSupport.probe()
        sandbox.pidsMax = runtime.supervisor.cgroups?.placement.limitsProcesses == true
        runtime.supervisor.spawner = .sandboxed(options.host.limits, support: sandbox)
        Self.announceSandbox(options.host.limits, support: sandbox, logger: logger)
        stopped = loop.makePromise()
        systemd = SystemdService(logger: logger)
        if let restored {
            logger.info("restored \(restored) widget(s) from \(options.statePath)")
        }
    }

    /// The daemon as widgethostd runs it: plugins from `options.pluginPaths`, the wall clock.
    public static func make(options: DaemonOptions, store: any StateStore, logger: Logger) throws(StateError) -> Daemon {
        let clock: any HostClock =
            options.virtualClockStart.map {
                // A directory of its own: the sandbox grants extensions this directory (the file
                // is replaced by rename at each jump), not the state directory with the database.
                let directory = options.statePath + "/virtual-clock"
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                return VirtualClock(start: $0, timestampFile: directory + "/faketime")
            } ?? WallClock()
        return try Daemon(
            options: options, store: store, clock: clock, logger: logger,
            scanBundles: { BundleScanner.scan(paths: options.pluginPaths) })
    }

    var eventLoop: any EventLoop { runtime.eventLoop }

    /// Loads plugins, tells the core the boot id, and starts serving the socket.
    public func start() throws {
        do {
            try eventLoop.flatSubmit { [self] () -> EventLoopFuture<Void> in
                rescan().flatMap { _ in
                    self.runtime.apply(.hostStarted(bootID: self.readBootID()))
                    let server = ControlServer(
                        runtime: self.runtime, settings: self.options.control, logger: self.logger,
                        rescan: { self.reload() })
                    self.server = server
                    do {
                        if let descriptor = self.options.listenDescriptor {
                            return server.adopt(descriptor: descriptor)
                        }
                        return try server.bind()
                    } catch {
                        return self.eventLoop.makeFailedFuture(error)
                    }
                }.flatMap {
                    TimeChangeMonitor.significantTimeChanges(
                        for: self.runtime, localtimePath: self.options.localtimePath,
                        minimumJump: self.options.minimumClockSet, logger: self.logger
                    ).map { self.timeChanges = $0 }
                }.map { self.systemd.ready(runtime: self.runtime) }
            }.wait()
            try startDashboard()
        } catch {
            systemd.notifier.failed(error)
            throw error
        }
        logger.notice("widgethostd ready: \(runtime.statusLine)", metadata: ["SOCKET": "\(options.control.socketPath)"])
    }

    /// The dashboard on `dashboard.listen`, its URL with the token in `dashboard.url`.
    private func startDashboard() throws {
        guard let listen = options.dashboard else { return }
        let source = RuntimeDashboardSource(
            runtime: runtime, settings: options.control, appGroupsPath: options.appGroupsPath,
            rescan: { self.reload() })
        let server = DashboardServer(host: listen.host, port: listen.port, source: source, logger: logger)
        let url = try server.start(on: eventLoop).wait()
        try DashboardURLFile.write(url: url, directory: options.statePath)
        try eventLoop.submit {
            self.dashboard = server
            self.runtime.controlRequestObserved = { method, seconds in
                server.recordControlRequest(method: ControlMethod(rawValue: method)?.rawValue ?? "unknown", seconds: seconds)
            }
        }.wait()
    }

    /// Rescans the plugin directories and runs `initialize` on every bundle found.
    func rescan() -> EventLoopFuture<ExtensionsResult> {
        eventLoop.preconditionInEventLoop()
        let scan = scanBundles()
        for warning in scan.warnings + scan.notes { logger.notice("\(warning)") }
        var loader = CatalogLoader(
            appGroupsPath: options.appGroupsPath, inheritedEnvironment: ProcessInfo.processInfo.environment,
            limits: options.host.limits, spawner: runtime.supervisor.spawner)
        if let clock = runtime.clock as? VirtualClock {
            if let environment = FakeTime.environment(.following(timestampFile: clock.timestampFile)) {
                loader.extraEnvironment = environment
            } else {
                logger.warning("extensions see the real time, not the virtual clock: \(FakeTime.missing)")
            }
        }
        return loader.load(found: scan.bundles, skipped: scan.skipped, in: runtime.supervisor.processTable).map { [self] loaded in
            runtime.supervisor.setLaunches(loaded.launches)
            runtime.catalog = loaded.result
            runtime.apply(.catalogChanged(loaded.descriptors))
            for bundle in loaded.result.skipped {
                logger.warning("skipped \(bundle.path): \(bundle.reason)")
            }
            return loaded.result
        }
    }

    /// A reload (SIGHUP, `widgethost rescan`): RELOADING=1, rescan, READY=1.
    func reload() -> EventLoopFuture<ExtensionsResult> {
        systemd.reloading()
        return rescan().always { [self] _ in systemd.reloaded(status: runtime.statusLine) }
    }

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread and every thread it starts.
    /// widgethostd calls it before any thread exists, so that all of them stay pending for
    /// `handleSignals()`, whatever mask its parent gave it, and none is lost before.
    public static func blockSignals() {
        SignalDescriptor.block()
    }

    /// SIGTERM and SIGINT stop the daemon, SIGHUP reloads it; read on the event loop from a
    /// signalfd. Call after `start()`; returns once they are watched.
    public func handleSignals() {
        do {
            try eventLoop.flatSubmit { [self] in
                SignalWatch.start(on: eventLoop, logger: logger, stop: { self.stop() }, reload: { _ = self.reload() })
                    .map { self.signals = $0 }
            }.wait()
        } catch {
            logger.error("cannot watch for signals (\(error)); stop widgethostd with SIGKILL")
        }
    }

    /// Blocks until `stop()`.
    public func wait() throws {
        try stopped.futureResult.wait()
    }

    /// Stops accepting, stops every extension and reaps it, then lets `wait()` return.
    public func stop() {
        eventLoop.execute { [self] in
            systemd.stopping()
            timeChanges?.stop()
            timeChanges = nil
            signals?.close()
            signals = nil
            server?.close()
            let dashboardStopped = dashboard.map { dashboard in
                DashboardURLFile.remove(directory: options.statePath)
                return dashboard.stop(on: eventLoop)
            } ?? eventLoop.makeSucceededVoidFuture()
            dashboard = nil
            dashboardStopped.flatMap { self.runtime.shutdown() }.whenComplete { _ in
                self.systemd.stopped()
                self.stopped.succeed(())
            }
        }
    }

    /// systemd's `%b` is 32 hex digits; the kernel's file has them dashed as a UUID. The file's
    /// form is what state written before `WIDGETHOST_BOOT_ID` holds, so the same boot compares
    /// equal whichever way it was read.
    static func dashedBootID(_ id: String) -> String {
        let hex = Array(id.lowercased())
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return id }
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    public func shutdownEventLoop() {
        try? group.syncShutdownGracefully()
    }

    private func readBootID() -> String {
        if let given = options.bootID?.trimmingCharacters(in: .whitespacesAndNewlines), !given.isEmpty {
            return Self.dashedBootID(given)
        }
        return (try? String(contentsOfFile: options.bootIDPath, encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    }
}
