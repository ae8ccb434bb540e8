import Foundation
import WidgetHostProtocol

/// Starts the bundle's executable once per request with the host's limits, in fresh
/// containers, optionally watching them.
struct Runner {
    struct Run {
        var outcome: ExtensionCall.Outcome
        /// With `watching`: what the process did in the containers.
        var uses: [String] = []
        /// The containers' group ids (empty when the extension has no app group).
        var groups: [String] = []
    }

    let workspace: Workspace
    let limits: DoctorLimits

    func call(
        _ method: ExtensionMethod, params: JSONValue?, deadline: TimeInterval,
        containers: Workspace.Containers = .seeded, watching: Bool = false
    ) -> Run {
        let prepared: Workspace.Prepared
        let watch: ContainerWatch?
        do {
            prepared = try workspace.prepare(containers)
            watch = watching ? try ContainerWatch(containers: prepared.containers) : nil
        } catch {
            let failure = ExtensionCall.Failure.spawn("cannot prepare its app group containers: \(error)")
            return Run(outcome: .init(result: .failure(failure), seconds: 0, peakFootprint: nil, stderrTail: []))
        }
        let call = ExtensionCall(
            launch: prepared.launch, deadline: deadline, memoryLimit: limits.memory,
            sampleInterval: limits.footprintSampleInterval,
            maxLineBytes: limits.host.limits.maxTimelineBytes + 64 * 1024)
        let outcome = call.run(method, params: params)
        return Run(outcome: outcome, uses: watch?.uses() ?? [], groups: prepared.containers.map(\.group))
    }
}

/// A failed request in words: what happened and what to change.
enum Explain {
    static func failure(
        _ failure: ExtensionCall.Failure, method: ExtensionMethod, deadline: TimeInterval, limits: DoctorLimits,
        outcome: ExtensionCall.Outcome, executable: String
    ) -> (detail: String, fix: String) {
        let stderr = outcome.stderrTail.suffix(3)
        let said = stderr.isEmpty ? "" : "; its stderr ends: " + stderr.joined(separator: " | ")
        switch failure {
        case .spawn(let message):
            return ("cannot start it: \(message)", spawnFix(message, executable: executable))
        case .timedOut:
            return (
                "no answer to \(method.rawValue) within \(Figures.interval(deadline)); the host kills it (timedOut) "
                    + "and keeps the previous timeline\(said)",
                method == .placeholder
                    ? "Return fixed sample content from placeholder(in:) at once: no files, network or database"
                    : "Do less before calling completion: read what the app already prepared in the app group "
                        + "instead of fetching or computing it, and call completion on every path")
        case .memoryLimitExceeded(let bytes):
            return (
                "footprint reached \(Figures.bytes(bytes)) during \(method.rawValue), over the "
                    + "\(Figures.mebibytes(limits.memory)) limit; the host kills it (memoryLimitExceeded), as jetsam does",
                "Hold less in memory: decode only what the entries show, downscale images before keeping them, "
                    + "and keep no caches in the extension")
        case .crashed(let message):
            return (
                "\(message)\(said)",
                "Run it by hand to see the crash: printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":\"initialize\","
                    + "\"method\":\"initialize\"}' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\(method.rawValue)\","
                    + "\"params\":{…}}' | \(executable)")
        case .protocolError(let message):
            return (
                "\(message)\(said)",
                "Answer each request with one JSON-RPC line carrying its id (docs/protocol.md), "
                    + "and write logs to stderr, never stdout")
        }
    }

    private static func spawnFix(_ message: String, executable: String) -> String {
        if message.contains("Exec format error") {
            return "Build the executable for this machine (swift build on Linux); a Mach-O binary from Xcode, "
                + "or one for another architecture, does not run here"
        }
        if message.contains("No such file"), let interpreter = shebang(executable) {
            return "Its #! line names \(interpreter), which is not installed; install it or fix the #! line"
        }
        return "Check that \(executable) runs: \(executable) < /dev/null"
    }

    /// The interpreter a script's `#!` line names, if the file is a script.
    static func shebang(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 256), as: UTF8.self)
        guard head.hasPrefix("#!") else { return nil }
        let line = head.dropFirst(2).prefix { $0 != "\n" }
        return line.split(separator: " ").first.map(String.init)
    }
}
