import Foundation

/// Figures 3 and 4 on one daemon, grown in steps: 10 widgets (footprint), 100 (idle
/// wake-ups), 1,000 and 10,000 (footprint). Every widget's next reload is 6 hours away,
/// the extension stops after its 1 s idle timeout, and no client stays connected.
enum IdleAndFootprint {
    struct Result {
        var idleWakeupsPerSecond: Double
        var idleWindow: Double
        var idleThreads: Int
        /// (widgets, RssAnon bytes once they were added and served, RssAnon bytes after a
        /// restart that loads them from the state store, seconds it took to add and serve them)
        var footprints: [(widgets: Int, rssAnon: Int, afterRestart: Int, fillSeconds: Double)]
    }

    static let settings = """
        [budget]
        enforce = false
        [extension]
        idle_timeout = "1s"
        """

    static func run(sizes: [Int], idleAt: Int, idleWindow: Double) throws -> Result {
        let daemon = try DaemonProcess(settings: settings)
        defer { daemon.stop() }
        var result = Result(idleWakeupsPerSecond: .nan, idleWindow: idleWindow, idleThreads: 0, footprints: [])
        var hosted = 0
        for target in (sizes + [idleAt]).sorted() where target > hosted {
            let start = monotonicSeconds()
            let ids = try daemon.addWidgets(target - hosted, kind: "BenchWidget")
            try daemon.waitUntilCurrent(ids.last!)
            let fill = monotonicSeconds() - start
            hosted = target
            try daemon.waitForNoExtension()
            usleep(2_000_000)  // Let the reaped extension's pages, the last writes and closing connections settle.
            if target == idleAt {
                let before = Proc.contextSwitches(daemon.pid)
                usleep(UInt32(idleWindow * 1_000_000))
                let after = Proc.contextSwitches(daemon.pid)
                result.idleWakeupsPerSecond = Double(after - before) / idleWindow
                result.idleThreads = Proc.threadCount(daemon.pid)
                log("idle: \(after - before) context switches in \(idleWindow) s with \(target) widgets")
            }
            if sizes.contains(target) {
                let rss = Proc.statusBytes(daemon.pid, "RssAnon") ?? -1
                try daemon.restart()
                usleep(1_000_000)
                let restarted = Proc.statusBytes(daemon.pid, "RssAnon") ?? -1
                result.footprints.append((target, rss, restarted, fill))
                log(
                    "footprint: \(target) widgets, RssAnon \(rss / 1024) KiB after adding them "
                        + "(\(String(format: "%.1f", fill)) s), \(restarted / 1024) KiB after a restart")
            }
        }
        return result
    }
}

/// Progress on stderr, so stdout carries only the table.
func log(_ message: String) {
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
}
