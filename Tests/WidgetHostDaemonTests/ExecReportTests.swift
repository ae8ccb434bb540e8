import Foundation
import Testing
import WidgetHostBundles
import WidgetHostProtocol
import WidgetHostRunner
@testable import WidgetHostDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The daemon starts an extension through a shim whose `execve` it learns of from a report
/// pipe; it reads that pipe on its event loop instead of blocking the loop on it (issue 17).
@Suite("The daemon does not block its event loop on a shim's execve", .tags(.process), .serialized)
struct ExecReportTests {
    /// A shim that waits for the test's gate file before it execs the extension, as a slow
    /// sandbox would; it closes its report descriptor (3) first, as the real shim's
    /// close-on-exec does at `execve`.
    struct GatedShim: LaunchConfinement {
        let script: String
        let gate: String

        static func write(in directory: String) throws -> String {
            let script = directory + "/gated-shim"
            try """
                #!/bin/sh
                gate=$1
                shift
                while [ ! -e "$gate" ]; do sleep 0.02; done
                exec 3>&-
                exec "$@"

                """.write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
            return script
        }

        func confine(_ command: inout SpawnCommand, for launch: ExtensionLaunch) throws(SpawnError) {
            command.arguments = [gate, command.executable] + command.arguments
            command.executable = script
            command.reportsOnDescriptor3 = true
        }
    }

    @Test("While a shim has not exec'd yet, the daemon answers: addWidget, status; the reload completes once it has")
    func loopStaysFree() throws {
        let fixture = try DaemonFixture(extensions: ["WellBehaved"]) { $0.limits.sandbox = .off }
        let gate = fixture.directory + "/gate"
        let shim = GatedShim(script: try GatedShim.write(in: fixture.directory), gate: gate)
        let runtime = fixture.daemon.runtime
        try runtime.eventLoop.submit { runtime.supervisor.spawner = ProcessSpawner(confinement: shim) }.wait()
        // Opened on every way out: a loop blocked on the shim would otherwise stay blocked.
        defer { _ = FileManager.default.createFile(atPath: gate, contents: nil) }

        let client = try fixture.client()
        // The reload this starts spawns the gated shim, which will not exec until the gate opens.
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        #expect(added.reload.outcome == .started)
        let waiting: StatusResult = try client.result("status", ["id": .string(added.widget.id)])
        #expect(waiting.widgets.first?.reloadRunning == true)
        #expect(waiting.widgets.first?.lastOutcome == nil)

        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        let done = try waitUntil {
            let status = try client.result("status", ["id": .string(added.widget.id)], as: StatusResult.self)
            return status.widgets.first?.lastOutcome?.result == .success
        }
        #expect(done)
    }

    @Test(
        "A shim's failed execve, read after the spawn returned, is still the spawn's error: at the probe and at a reload",
        .enabled(if: SandboxShim.path != nil, "widgethost-sandbox is not built beside the test bundle"))
    func execFailure() throws {
        let fixture = try DaemonFixture(extensions: ["WellBehaved"])
        let executable = fixture.directory + "/plugins/WellBehaved.appex/WellBehaved"
        let client = try fixture.client()
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        _ = try waitUntil {
            try client.result("status", ["id": .string(added.widget.id)], as: StatusResult.self).widgets.first?.lastOutcome != nil
        }
        // Stop the running process, and let the bundle's executable name an interpreter that is not there.
        try fixture.daemon.runtime.eventLoop.submit {
            fixture.daemon.runtime.supervisor.terminate("com.fixture.wellbehaved.widget")
        }.wait()
        try "#!/nonexistent/interpreter\n".write(toFile: executable, atomically: false, encoding: .utf8)

        let reload: ReloadResult = try client.result("reloadTimelines", ["kind": "WellBehavedWidget", "foreground": true])
        #expect(reload.outcomes.first?.outcome == .started)
        var detail: String?
        _ = try waitUntil {
            let outcome = try client.result("status", ["id": .string(added.widget.id)], as: StatusResult.self).widgets.first?.lastOutcome
            detail = outcome?.result == .crashed ? outcome?.detail : nil
            return detail != nil
        }
        #expect(detail == "the extension crashed: cannot start \(executable): No such file or directory")

        let rescanned: ExtensionsResult = try client.result("rescan")
        #expect(rescanned.loaded.isEmpty)
        #expect(rescanned.skipped.first?.reason.contains("cannot start \(executable): No such file or directory") == true)
    }
}
