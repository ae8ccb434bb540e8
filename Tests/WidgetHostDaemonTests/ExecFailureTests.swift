import Foundation
import Testing
import WidgetHostBundles
import WidgetHostProtocol
import WidgetHostRunner
@testable import WidgetHostDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's spawn returns once the confined child has exec'd the extension; an `execve`
/// that fails there (a missing interpreter) is the spawn's own error (issue 16: the exec shim
/// and its report pipe are gone).
@Suite("A failed execve in the confined child is the spawn's error", .tags(.process), .serialized)
struct ExecFailureTests {
    @Test("A failed execve is the spawn's error: at a reload and at the probe of a rescan")
    func execFailure() throws {
        let fixture = try DaemonFixture(extensions: ["WellBehaved"])
        let executable = fixture.directory + "/plugins/WellBehaved.appex/WellBehaved"
        let client = try fixture.client()
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        _ = try waitUntil {
            try client.result("status", ["id": .string(added.widget.id)], as: StatusResult.self).widgets.first?.lastOutcome != nil
        }
        // Stop the running process, and let the bundle's executable name an interpreter that is not there.
        try fixture.daemon.runtime.eventLoop.submit { [unowned fixture] in
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
