import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Adding widgets as fast as a client can ask (issue 16's fill): each `addWidget` is answered
/// only after its step is committed (`synchronous = NORMAL` in WAL: a commit survives the
/// process's death by any signal), so a kill -9 in the middle of the stream loses no widget
/// the client was told about, and hands out no id twice.
@Suite("A stream of addWidget requests survives kill -9", .serialized)
struct FillKillTests {
    @Test("kill -9 after 150 of 200 pipelined addWidget replies: every acknowledged widget is back after the restart, and new ids do not repeat")
    func acknowledgedWidgetsSurvive() throws {
        let daemon = try RealDaemon(config: "[budget]\nenforce = false\n", fixtures: ["WellBehaved"])
        let socket = try LineSocket(path: daemon.socket)
        func request(_ id: Int) -> String {
            #"{"jsonrpc":"2.0","id":\#(id),"method":"addWidget","params":{"kind":"WellBehavedWidget","family":"systemSmall"}}"#
        }
        // Fifty requests ahead of the replies read, as the benchmark's client pipelines them.
        var sent = 0
        var acknowledged: [String] = []
        while acknowledged.count < 150 {
            while sent < acknowledged.count + 50 {
                sent += 1
                socket.send(request(sent))
            }
            let reply = try #require(socket.receive(), "no reply after \(acknowledged.count) acknowledged")
            guard case .string(let id)? = reply.objectValue?["result"]?.objectValue?["widget"]?.objectValue?["id"] else {
                Issue.record("addWidget failed: \(reply)")
                return
            }
            acknowledged.append(id)
        }
        daemon.kill9()

        try daemon.start()
        let client = try ControlClient(socketPath: daemon.socket)
        let status: StatusResult = try client.call(.status, params: StatusParams())
        let stored = Set(status.widgets.map(\.widget.id))
        let lost = acknowledged.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "acknowledged before kill -9 but missing after the restart: \(lost)")
        #expect(stored.count >= 150 && stored.count <= sent, "\(stored.count) widgets stored, \(sent) requested")
        let next: AddWidgetResult = try client.call(
            .addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: .systemSmall))
        #expect(!stored.contains(next.widget.id), "the id \(next.widget.id) was handed out before the kill")
    }
}
