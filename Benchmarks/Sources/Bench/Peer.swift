import Foundation
import WidgetHostProtocol

/// Figure 6: i3blocks hosting 20 blocks with `interval=10` against widgethostd hosting 20
/// widgets that reload on the 10-second marks; idle cost over a window, and on-demand
/// refresh latency (a signal to i3blocks, `widgethost reload` to widgethostd).
enum Peer {
    struct Side {
        /// CPU seconds in the window: the host process and its children (reaped and live).
        var cpuSeconds: Double
        /// Context switches of the host process (all threads) in the window.
        var wakeups: Int
        /// Context switches of long-lived children (the extension) in the window.
        var childWakeups: Int
        /// Status lines printed (i3blocks) in the window.
        var updates: Int
        /// On demand, by the command line tool (`pkill -RTMIN+1 i3blocks`, `widgethost reload`).
        var refreshByCommand: Sample
        /// On demand, directly (kill(2); a `reloadTimelines` request on an open connection).
        var refreshDirect: Sample
    }

    static let blocks = 20
    static let interval = 10

    // MARK: i3blocks

    static func i3blocks(window: Double, iterations: Int) throws -> Side {
        guard let executable = ["/usr/bin/i3blocks", "/bin/i3blocks"].first(where: FileManager.default.isExecutableFile)
        else { throw BenchError("i3blocks is not installed (make bench installs the Debian package)") }
        var template = Array("/tmp/whi3-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = ""
        for index in 1...blocks {
            config += "[b\(index)]\ncommand=date +%s%N\ninterval=\(interval)\nsignal=\(index)\n\n"
        }
        try config.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        let child = try SpawnedChild.spawn(
            executable, arguments: ["-c", directory + "/config"], environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC"])
        defer {
            kill(child.pid, SIGTERM)
            child.finish()
        }
        let lines = LineLog()
        let reader = ChannelReader(child.channel, into: lines)
        reader.start()

        usleep(UInt32(Double(interval + 2) * 1_000_000))  // Every block has run at least once.
        let cpuBefore = Proc.cpuSeconds(child.pid)
        let switchesBefore = Proc.contextSwitches(child.pid)
        let linesBefore = lines.count
        usleep(UInt32(window * 1_000_000))
        let cpuAfter = Proc.cpuSeconds(child.pid)
        let switchesAfter = Proc.contextSwitches(child.pid)
        let updates = lines.count - linesBefore

        let signal = rtmin() + 1
        var byCommand = Sample()
        var direct = Sample()
        for iteration in 0..<(2 * iterations) {
            let viaCommand = iteration % 2 == 0
            let startNanoseconds = realtimeNanoseconds()
            let start = monotonicSeconds()
            var pkill: SpawnedChild?
            if viaCommand {
                pkill = try SpawnedChild.spawn("/usr/bin/pkill", arguments: ["-RTMIN+1", "-x", "i3blocks"])
            } else {
                kill(child.pid, signal)
            }
            let arrived = try lines.waitForBlock1(newerThan: startNanoseconds, timeout: 5)
            pkill?.finish()
            let elapsed = (arrived - start) * 1e6
            if viaCommand { byCommand.add(elapsed) } else { direct.add(elapsed) }
            usleep(50_000)
        }
        return Side(
            cpuSeconds: cpu(cpuAfter) - cpu(cpuBefore), wakeups: switchesAfter - switchesBefore, childWakeups: 0,
            updates: updates, refreshByCommand: byCommand, refreshDirect: direct)
    }

    // MARK: widgethostd

    static func widgethostd(window: Double, iterations: Int) throws -> Side {
        let daemon = try DaemonProcess(
            settings: """
                [budget]
                enforce = false
                [policy]
                min_reload_interval = "0s"
                """)
        defer { daemon.stop() }
        _ = try daemon.addWidgets(blocks - 1, kind: "BenchTicker")
        let signalWidget = try daemon.addWidgets(1, kind: "BenchSignal")[0]
        try daemon.waitUntilCurrent(signalWidget)

        usleep(UInt32(Double(interval + 2) * 1_000_000))
        let extensions = Proc.children(of: daemon.pid)
        let cpuBefore = cpu(Proc.cpuSeconds(daemon.pid)) + extensions.map { cpu(Proc.cpuSeconds($0)) }.reduce(0, +)
        let switchesBefore = Proc.contextSwitches(daemon.pid)
        let childBefore = extensions.map(Proc.contextSwitches).reduce(0, +)
        usleep(UInt32(window * 1_000_000))
        let cpuAfter =
            cpu(Proc.cpuSeconds(daemon.pid)) + extensions.map { cpu(Proc.cpuSeconds($0)) }.reduce(0, +)
        let switchesAfter = Proc.contextSwitches(daemon.pid)
        let childAfter = extensions.map(Proc.contextSwitches).reduce(0, +)
        if Proc.children(of: daemon.pid) != extensions {
            log("peer: the extension process changed during the window; its CPU is counted as reaped children")
        }

        let subscription = try Subscription(socket: daemon.socket)
        defer { subscription.close() }
        let control = try LineChannel(connectingTo: daemon.socket)
        defer { control.close() }
        var byCommand = Sample()
        var direct = Sample()
        for iteration in 0..<(2 * iterations) {
            let viaCommand = iteration % 2 == 0
            let start = monotonicSeconds()
            var cli: SpawnedChild?
            if viaCommand {
                cli = try SpawnedChild.spawn(
                    Binaries.cli, arguments: ["reload", "--kind", "BenchSignal"],
                    environment: ["WIDGETHOST_SOCKET": daemon.socket, "PATH": "/usr/bin:/bin"])
            } else {
                try control.write(
                    #"{"jsonrpc":"2.0","id":\#(iteration),"method":"reloadTimelines","params":{"kind":"BenchSignal"}}"#
                        + "\n")
            }
            let (_, arrived) = try subscription.next(.entryChanged) { $0.widgetId == signalWidget && ($0.serial ?? 0) > 0 }
            if let cli {
                while (try? cli.channel.readLine()) != nil {}
                cli.finish()
            } else {
                _ = try control.readLine()
            }
            let elapsed = (arrived - start) * 1e6
            if viaCommand { byCommand.add(elapsed) } else { direct.add(elapsed) }
            usleep(50_000)
        }
        return Side(
            cpuSeconds: cpuAfter - cpuBefore, wakeups: switchesAfter - switchesBefore,
            childWakeups: childAfter - childBefore, updates: 0, refreshByCommand: byCommand, refreshDirect: direct)
    }

    // MARK: Helpers

    private static func cpu(_ times: (own: Double, children: Double)?) -> Double {
        times.map { $0.own + $0.children } ?? 0
    }

    static func rtmin() -> Int32 { __libc_current_sigrtmin() }

    static func realtimeNanoseconds() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return spec.tv_sec * 1_000_000_000 + spec.tv_nsec
    }
}

/// i3blocks' status lines as they arrive: when, and block b1's text (a `date +%s%N`).
private final class LineLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [(at: Double, block1: Int)] = []

    var count: Int { condition.withLock { lines.count } }

    func append(_ line: [UInt8], at time: Double) {
        var text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(",") { text.removeFirst() }
        var block1 = 0
        if let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]],
            let block = array.first(where: { $0["name"] as? String == "b1" }), let full = block["full_text"] as? String
        {
            block1 = Int(full) ?? 0
        }
        condition.withLock {
            lines.append((time, block1))
            condition.broadcast()
        }
    }

    /// The arrival time of the first line whose b1 was produced after `nanoseconds`.
    func waitForBlock1(newerThan nanoseconds: Int, timeout: Double) throws -> Double {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: { $0.block1 > nanoseconds }) { return line.at }
            guard condition.wait(until: deadline) else { throw BenchError("i3blocks printed no new b1 within \(timeout) s") }
        }
    }
}

/// Reads a child's stdout on its own thread, timestamping each line.
private final class ChannelReader: @unchecked Sendable {
    let channel: LineChannel
    let log: LineLog
    init(_ channel: LineChannel, into log: LineLog) {
        self.channel = channel
        self.log = log
    }

    func start() {
        Thread.detachNewThread { [self] in
            while let line = try? channel.readLine() { log.append(line, at: monotonicSeconds()) }
        }
    }
}
