import Foundation

/// Figure 2: `status` requests per second from 1 and 16 concurrent clients, each sending
/// its next request when the previous reply arrives; against the same request and reply
/// bytes through a minimal Unix-socket echo (`widgethost-bench-echo`).
enum ControlThroughput {
    struct Result {
        var requestsPerSecond: Double
        var latency: Sample
    }

    /// The daemon's side: its `status` reply (one widget) and the runs with 1 and 16 clients.
    struct DaemonRun {
        var reply: [UInt8]
        var results: [Result]
    }

    static let clientCounts = [1, 16]

    static func daemonRun(socket: String, quick: Bool) throws -> DaemonRun {
        log("2. control throughput: daemon")
        let reply = try captureReply(socket: socket)
        let results = try clientCounts.map { try run(socket: socket, clients: $0, seconds: quick ? 1 : 3) }
        return DaemonRun(reply: reply, results: results)
    }

    static let request = Array(#"{"jsonrpc":"2.0","id":1,"method":"status","params":{}}"#.utf8) + [UInt8(ascii: "\n")]

    /// The daemon's reply to `request`, to be served by the echo as the same payload.
    static func captureReply(socket: String) throws -> [UInt8] {
        let channel = try LineChannel(connectingTo: socket)
        defer { channel.close() }
        try channel.write(request)
        return try channel.readLine()
    }

    /// `clients` threads, each on its own connection, for `seconds`.
    static func run(socket: String, clients: Int, seconds: Double) throws -> Result {
        let channels = try (0..<clients).map { _ in try LineChannel(connectingTo: socket) }
        defer { channels.forEach { $0.close() } }
        let results = Results(count: clients)
        let start = monotonicSeconds() + 0.05
        let end = start + seconds
        let group = DispatchGroup()
        for (index, channel) in channels.enumerated() {
            let box = ChannelBox(channel)
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var latencies: [Double] = []
                latencies.reserveCapacity(200_000)
                while monotonicSeconds() < start {}
                do {
                    while true {
                        let sent = monotonicSeconds()
                        if sent >= end { break }
                        try box.channel.write(request)
                        _ = try box.channel.readLine()
                        latencies.append((monotonicSeconds() - sent) * 1e6)
                    }
                } catch {
                    results.fail("\(error)")
                }
                results.store(index, latencies)
            }
        }
        group.wait()
        if let failure = results.failure { throw BenchError("status client failed: \(failure)") }
        let all = results.all
        return Result(requestsPerSecond: Double(all.count) / seconds, latency: Sample(all))
    }

    /// Starts the echo floor serving `reply`, runs `body` against it, stops it.
    static func withEcho<T>(reply: [UInt8], _ body: (String) throws -> T) throws -> T {
        var template = Array("/tmp/whecho-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/reply", contents: Data(reply + [UInt8(ascii: "\n")]))
        let echo = Process()
        echo.executableURL = URL(fileURLWithPath: Binaries.echo)
        echo.arguments = [directory + "/s.sock", directory + "/reply"]
        try echo.run()
        defer {
            echo.terminate()
            echo.waitUntilExit()
        }
        let deadline = monotonicSeconds() + 10
        while (try? LineChannel(connectingTo: directory + "/s.sock"))?.close() == nil {
            guard monotonicSeconds() < deadline else { throw BenchError("the echo did not start") }
            usleep(5_000)
        }
        return try body(directory + "/s.sock")
    }
}

/// A channel handed to one thread and used by it alone.
private final class ChannelBox: @unchecked Sendable {
    let channel: LineChannel
    init(_ channel: LineChannel) { self.channel = channel }
}

/// Per-thread latencies, collected under a lock.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var perThread: [[Double]]
    private(set) var failure: String?

    init(count: Int) { perThread = Array(repeating: [], count: count) }

    func store(_ index: Int, _ values: [Double]) {
        lock.withLock { perThread[index] = values }
    }

    func fail(_ message: String) {
        lock.withLock { failure = failure ?? message }
    }

    var all: [Double] { lock.withLock { perThread.flatMap { $0 } } }
}
