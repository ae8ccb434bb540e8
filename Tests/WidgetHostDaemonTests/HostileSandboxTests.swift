import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner
@testable import WidgetHostDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The hostile fixture (extension.py's "hostile" mode) as a bundle under the real daemon: on
/// its timeline/get it tries each attempt of issue 17 and writes what happened into its own
/// app group, which is the positive control. Every attempt must fail and the daemon serve on.
@Suite(
    "A hostile extension under the real daemon", .tags(.process), .serialized,
    .enabled(if: SandboxSupport.probe().landlockABI >= 6, "this kernel lacks Landlock ABI 6 (filesystem, TCP and signal rules)"))
struct HostileSandboxTests {
    static func request(_ method: String, _ params: String) -> String {
        #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
    }

    @Test("Each attempt fails, its own group works, and the daemon stays up and serving")
    func gallery() throws {
        let listener = try LoopbackListener()
        defer { close(listener.descriptor) }
        let socket = "{root}/control.sock"
        let attempts: [(String, String)] = [
            ("read {root}/AppGroups/group.com.fixture.wellbehaved/widget.json", "refused EACCES"),
            ("read {root}/state/widgethost.sqlite3", "refused EACCES"),
            ("write {root}/plugins/Hostile.appex/extension.py", "refused EACCES"),
            ("write {root}/planted", "refused EACCES"),
            ("write {own}/own.json", "ok"),
            ("read {own}/app.json", "ok"),
            ("tcp 127.0.0.1:\(listener.port)", "refused EAFNOSUPPORT"),
            ("signal-parent 9", "refused EPERM"),
            ("control \(socket) " + Self.request("addWidget", #"{"kind":"WellBehavedWidget","family":"systemSmall"}"#), "error -32001"),
            ("control \(socket) " + Self.request("status", "{}"), "error -32001"),
            // The other plain `status` lines answered without the JSON reader keep the rule too.
            ("control \(socket) " + #"{"jsonrpc":"2.0","id":1,"method":"status"}"#, "error -32001"),
            ("control \(socket) " + #"{"id":1,"jsonrpc":"2.0","method":"status","params":{}}"#, "error -32001"),
            ("control \(socket) " + Self.request("reloadTimelines", #"{"kind":"WellBehavedWidget","app":"com.fixture.wellbehaved"}"#), "error -32001"),
            ("control \(socket) " + Self.request("reloadTimelines", #"{"kind":"HostileWidget","foreground":true}"#), "error -32001"),
            ("control \(socket) " + Self.request("reloadTimelines", #"{"kind":"HostileWidget"}"#), "ok"),
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: attempts.map(\.0) + ["files 100000"]), as: UTF8.self)
        let fixture = try DaemonFixture(
            extensions: ["Hostile", "WellBehaved"], environment: ["WIDGETHOST_FIXTURE_ATTEMPTS": json])
        let root = fixture.directory
        let own = root + "/AppGroups/group.com.fixture.hostile"
        try "{\"secret\":true}".write(toFile: root + "/AppGroups/group.com.fixture.wellbehaved/widget.json", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/state", withIntermediateDirectories: true)
        try "SQLite format 3".write(toFile: root + "/state/widgethost.sqlite3", atomically: false, encoding: .utf8)
        try "{\"from\":\"the app\"}".write(toFile: own + "/app.json", atomically: false, encoding: .utf8)

        let client = try fixture.client()
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "HostileWidget", "family": "systemSmall"])
        #expect(added.reload.outcome == .started)
        // The extension writes the file in place: wait until it holds the whole object, not
        // just until it exists (read half-written, it failed under load).
        var results: [String: String]?
        #expect(try waitUntil {
            guard let data = FileManager.default.contents(atPath: own + "/results.json") else { return false }
            results = try? JSONSerialization.jsonObject(with: data) as? [String: String]
            return results != nil
        })
        let written = try #require(results)
        for (attempt, expected) in attempts {
            #expect(written[attempt] == expected, "\(attempt)")
        }
        let files = Int(written["files 100000"]?.split(separator: " ").last ?? "") ?? -1
        #expect(files > 200 && files < 256, "files 100000: \(written["files 100000"] ?? "none")")

        // Unharmed: nothing planted, the daemon serves, the extension's own reload went through.
        #expect(!FileManager.default.fileExists(atPath: root + "/planted"))
        #expect(try String(contentsOfFile: root + "/AppGroups/group.com.fixture.wellbehaved/widget.json", encoding: .utf8) == "{\"secret\":true}")
        let status: StatusResult = try client.result("status", ["id": .string(added.widget.id)])
        #expect(status.widgets.first?.lastOutcome?.result == .success)
    }
}

/// `extensions` and `status` on the real daemon say how each extension is confined: what the
/// adapter found on this kernel, per extension (its containers), and `off` when it is off.
@Suite("The real daemon shows each extension's sandbox", .tags(.process), .serialized)
struct SandboxStatusTests {
    @Test("extensions and status carry each extension's mode, rules applied and rules missing", arguments: SandboxMode.allCases)
    func shown(mode: SandboxMode) throws {
        let fixture = try DaemonFixture(extensions: ["WellBehaved"]) { $0.limits.sandbox = mode }
        let client = try fixture.client()
        let catalog: ExtensionsResult = try client.result("extensions")
        // As the daemon finds it: pids.max in a delegated cgroup stands in for RLIMIT_NPROC.
        var kernel = SandboxSupport.probe()
        kernel.pidsMax = fixture.daemon.runtime.supervisor.cgroups?.placement.limitsProcesses == true
        if mode == .required, let first = kernel.missing.first {
            // Refused at its first start, initialize: skipped with the rule and the fix.
            #expect(catalog.loaded.isEmpty)
            #expect(catalog.skipped.first?.reason.contains("limits.sandbox = \"required\" and \(first.rule) cannot be applied") == true)
            return
        }
        let sandbox = try #require(catalog.loaded.first?.sandbox)
        #expect(sandbox.mode == mode.rawValue)
        switch mode {
        case .off:
            #expect(sandbox.applied.isEmpty)
            #expect(sandbox.missing.count == SandboxRule.allCases.count)
        case .auto, .required:
            #expect(sandbox.missing.map(\.rule) == kernel.missing.map(\.rule.rawValue))
            #expect(sandbox.applied.count + sandbox.missing.count == SandboxRule.allCases.count)
            #expect(sandbox.refused == nil)
            if kernel.landlockABI >= 1 {
                let filesystem = sandbox.applied.first { $0.rule == "filesystem" }?.detail ?? ""
                #expect(filesystem.contains("group.com.fixture.wellbehaved (\(fixture.directory)/AppGroups/group.com.fixture.wellbehaved)"))
            }
        }
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        let all: StatusResult = try client.result("status")
        #expect(all.extensions == [ExtensionStatus(id: "com.fixture.wellbehaved.widget", sandbox: sandbox)])
        let one: StatusResult = try client.result("status", ["id": .string(added.widget.id)])
        #expect(one.extensions?.map(\.id) == ["com.fixture.wellbehaved.widget"])
    }
}

/// A TCP listener on 127.0.0.1 at a port the kernel picks.
private struct LoopbackListener {
    let descriptor: CInt
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
    }
}
