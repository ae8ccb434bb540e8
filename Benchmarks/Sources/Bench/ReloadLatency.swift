import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// Figure 1: from the `reloadTimelines` request to the new entry being current, as a
/// `subscribe` client sees it; against the floors of the same extension without the host.
enum ReloadLatency {
    static func timelineRequest(id: Int, kind: String = "BenchWidget") -> String {
        let now = RFC3339.format(Date())
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"timeline/get","params":{"kind":"\#(kind)","family":"systemSmall","widgetId":"w1","now":"\#(now)"}}"#
            + "\n"
    }

    /// Floor, warm: one NDJSON round trip over a pipe to an already-running extension.
    static func pipeRoundTrip(iterations: Int) throws -> Sample {
        let child = try SpawnedChild.spawn(Binaries.benchExtension, environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC"])
        defer { child.finish() }
        try child.channel.write(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}"# + "\n")
        _ = try child.channel.readLine()
        var sample = Sample()
        for index in 0..<(iterations + 20) {
            let request = timelineRequest(id: index + 1)
            let elapsed = try microseconds {
                try child.channel.write(request)
                _ = try child.channel.readLine()
            }
            if index >= 20 { sample.add(elapsed) }  // The first ones warm the caches.
        }
        return sample
    }

    /// Floor, cold: spawn `executable`, one `timeline/get`, its reply; in microseconds.
    /// `initialize`: with the `initialize` the daemon pipelines ahead of the request (both
    /// lines in one write, both replies read), a part of the floor of its own.
    static func spawnAndAnswerOnce(_ executable: String, initialize: Bool) throws -> Double {
        let lines = Array(((initialize ? initializeLine : "") + timelineRequest(id: 1)).utf8)
        var child: SpawnedChild?
        defer { child?.finish() }
        return try microseconds {
            child = try SpawnedChild.spawn(executable, environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC"])
            try child!.channel.write(lines)
            _ = try child!.channel.readLine()
            if initialize { _ = try child!.channel.readLine() }
        }
    }

    /// What the daemon writes to a process it has just started: `initialize` and the request,
    /// one after the other (`ExtensionSession.start`, then `send`).
    static let initializeLine =
        #"{"id":"initialize-1","jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":\#(WidgetHostProtocol.protocolVersion)}}"#
        + "\n"

    /// The cold floor's parts started as the daemon starts an extension: through
    /// `ProcessSpawner` with the daemon's environment, stderr pipe and process group (`spawner`
    /// unconfined), or with the daemon's confinement too (`limits.sandbox = auto`: limits,
    /// Landlock and seccomp in the spawned child); `initialize` and `timeline/get` in one
    /// write, both replies read. In microseconds.
    static func spawnAsDaemonAndAnswerOnce(_ launch: ExtensionLaunch, spawner: ProcessSpawner) throws -> Double {
        let lines = Array((initializeLine + timelineRequest(id: 1)).utf8)
        var child: SpawnedChild?
        defer {
            child?.finish()
            // Untimed, as the daemon makes the next process's ruleset once one has exited.
            spawner.prepareNextSpawn(of: launch)
        }
        return try microseconds {
            let spawned: SpawnedProcess
            do { spawned = try spawner.spawn(launch) } catch { throw BenchError("\(error)") }
            Glibc.close(spawned.stderrRead)
            child = SpawnedChild(
                pid: spawned.pid, channel: LineChannel(reading: spawned.stdoutRead, writing: spawned.stdinWrite))
            try child!.channel.write(lines)
            _ = try child!.channel.readLine()
            _ = try child!.channel.readLine()
        }
    }

    /// The bench bundle in `directory` as the daemon would launch it (the daemon's environment:
    /// PATH, LANG and TZ kept, `WIDGETHOST_BUNDLE`, no app groups).
    static func benchLaunch(in directory: String) throws -> ExtensionLaunch {
        let bundle = directory + "/Bench.appex"
        try DaemonProcess.writeBundle(into: bundle)
        return ExtensionLaunch(
            bundleID: DaemonProcess.bundleID, executable: bundle + "/widgethost-bench-extension", directory: bundle,
            environment: [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "WIDGETHOST_BUNDLE": bundle,
                "WIDGETHOST_APP_GROUPS": "",
            ])
    }

    /// The daemon, warm: `reloadTimelines {kind: BenchWidget}` for its one widget, timed until
    /// the `entryChanged` notice with the new serial arrives. (Cold: `ColdReload`.)
    static func daemon(_ daemon: DaemonProcess, iterations: Int) throws -> Sample {
        let reloads = try DaemonReloads(daemon, cold: false)
        defer { reloads.close() }
        var sample = Sample()
        let warmup = 20  // The first ones warm the caches.
        for index in 0..<(iterations + warmup) {
            let elapsed = try reloads.once()
            if index >= warmup { sample.add(elapsed) }
        }
        return sample
    }
}
