import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// Starts the bundle's executable once per request with the host's limits, in fresh
/// containers, optionally watching them. Each request is a `ColdCall`: the runner measures,
/// the core's verdict says when it timed out or was killed for memory.
struct Caller {
    struct Run {
        var outcome: ColdCall.Outcome<ExtensionReply>
        /// With `watching`: what the process did in the containers.
        var uses: [String] = []
        /// The containers' group ids (empty when the extension has no app group).
        var groups: [String] = []
        /// What the process was started with, and where its run's containers lie (nil: it
        /// could not be prepared).
        var launch: ExtensionLaunch?
        var groupsRoot: String?
    }

    let workspace: Workspace
    let limits: DoctorLimits

    private var coldCall: ColdCall {
        ColdCall(limits: limits.host.limits, sampleInterval: limits.footprintSampleInterval)
    }

    /// `initialize` alone, in seeded containers.
    func initialize() -> ColdCall.Outcome<InitializeResult> {
        do {
            return coldCall.initialize(try workspace.prepare(.seeded).launch)
        } catch {
            return .init(result: .failure(Self.unprepared(error)), seconds: 0, peakFootprint: nil, stderrTail: [])
        }
    }

    /// `initialize` and then `call`.
    func call(_ call: ExtensionRequest.Call, containers: Workspace.Containers = .seeded, watching: Bool = false) -> Run {
        let prepared: Workspace.Prepared
        let watch: ContainerWatch?
        do {
            prepared = try workspace.prepare(containers)
            watch = watching ? try ContainerWatch(containers: prepared.containers) : nil
        } catch {
            return Run(outcome: .init(result: .failure(Self.unprepared(error)), seconds: 0, peakFootprint: nil, stderrTail: []))
        }
        let outcome = coldCall.request(call, of: prepared.launch)
        return Run(
            outcome: outcome, uses: watch?.uses() ?? [], groups: prepared.containers.map(\.group), launch: prepared.launch,
            groupsRoot: prepared.groupsRoot.path)
    }

    private static func unprepared(_ error: any Error) -> ColdCall.Failure {
        .notStarted("cannot prepare its app group containers: \(error)")
    }
}

/// A failed request in words: what happened and what to change.
enum Explain {
    static func failure(
        _ failure: ColdCall.Failure, method: ExtensionMethod, limits: DoctorLimits, stderrTail: [String],
        executable: String
    ) -> (detail: String, fix: String) {
        let stderr = stderrTail.suffix(3)
        let said = stderr.isEmpty ? "" : "; its stderr ends: " + stderr.joined(separator: " | ")
        switch failure {
        case .notStarted(let message):
            return ("cannot start it: \(message)", spawnFix(message, executable: executable))
        case .failed(.timedOut):
            return (
                "no answer to \(method.rawValue) within \(Figures.interval(limits.timeout(for: method))); the host "
                    + "kills it (timedOut) and keeps the previous timeline\(said)",
                method == .placeholder
                    ? "Return fixed sample content from placeholder(in:) at once: no files, network or database"
                    : "Do less before calling completion: read what the app already prepared in the app group "
                        + "instead of fetching or computing it, and call completion on every path")
        case .failed(.memoryLimitExceeded(let bytes)):
            return (
                "footprint reached \(Figures.bytes(bytes)) during \(method.rawValue), over the "
                    + "\(Figures.mebibytes(limits.memory)) limit; the host kills it (memoryLimitExceeded), as jetsam does",
                "Hold less in memory: decode only what the entries show, downscale images before keeping them, "
                    + "and keep no caches in the extension")
        case .failed(.crashed(let message)):
            return (
                "it \(message)\(said)",
                "Run it by hand to see the crash: printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":\"initialize-1\","
                    + "\"method\":\"initialize\"}' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\(method.rawValue)\","
                    + "\"params\":{…}}' | \(executable)")
        case .failed(.protocolError(let message)) where message.contains("reply does not match the protocol"):
            return ("\(message)\(said)", shapeFix(method))
        case .failed(.protocolError(let message)):
            return (
                "\(message)\(said)",
                "Answer each request with one JSON-RPC line carrying its id (docs/protocol.md), "
                    + "and write logs to stderr, never stdout")
        }
    }

    /// What a reply of `method` looks like.
    private static func shapeFix(_ method: ExtensionMethod) -> String {
        switch method {
        case .initialize:
            "Reply {\"widgets\":[{\"kind\",\"displayName\",\"description\",\"supportedFamilies\"}]} (docs/protocol.md)"
        case .timeline: "Reply {\"entries\":[{\"date\",\"content\"}…],\"policy\":{\"type\":…}} (docs/protocol.md)"
        case .placeholder, .snapshot: "Reply with one entry {\"date\": RFC 3339, \"content\": …} (docs/protocol.md)"
        case .intentPerform: "Reply {} after perform(), or {\"error\": …} if it threw (docs/protocol.md)"
        case .intentOptions: "Reply {\"options\":[{\"id\",\"title\"}…]} (docs/protocol.md)"
        case .controlValue: "Reply {\"isOn\"?, \"title\"?, \"action\"?} (docs/protocol.md)"
        case .activityRender:
            "Reply {\"lockScreen\",\"compactLeading\",\"compactTrailing\",\"minimal\",\"expanded\"} (docs/protocol.md)"
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
