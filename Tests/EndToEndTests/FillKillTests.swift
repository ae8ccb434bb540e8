import Foundation
import SeededRandom
import Testing
import WidgetHostClient
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Adding widgets as fast as a client can ask (issue 16's fill): the lines of one read are
/// handled as one batch whose steps are committed in one transaction before any reply,
/// notice or extension request they caused leaves the daemon (`synchronous = NORMAL` in WAL:
/// a commit survives the process's death by any signal), so a kill -9 in the middle of the
/// stream loses no widget the client was told about, hands out no id twice, and loses no
/// charge of a reload that was reported started or whose request reached the extension.
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

    @Test(
        "kill -9 at random points of a pipelined stream of addWidget and budgeted reloadTimelines: no acknowledged widget, no charge reported or sent to the extension, is lost",
        arguments: 0..<3)
    func randomKillPoints(round: Int) throws {
        let seed = ProcessInfo.processInfo.environment["WIDGETHOST_FILLKILL_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000) &+ UInt64(round)
        var random = SeededGenerator(seed: seed)
        // Budgeted reloads with no minimum interval: every one started is charged at once.
        let daemon = try RealDaemon(config: "[policy]\nmin_reload_interval = \"0s\"\n", fixtures: ["WellBehaved"])
        // Twenty widgets served first, so that the stream's reloads start (and are charged) at once.
        let setup = try ControlClient(socketPath: daemon.socket)
        for _ in 0..<20 {
            let _: AddWidgetResult = try setup.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: .systemSmall))
        }
        let served = Date().addingTimeInterval(30)
        while Date() < served {
            let status: StatusResult = try setup.call(.status, params: StatusParams())
            if status.widgets.allSatisfy({ $0.lastOutcome != nil && !$0.reloadRunning }) { break }
            usleep(20_000)
        }
        setup.close()
        let socket = try LineSocket(path: daemon.socket)
        var lines: [String] = []
        for index in 1...60 {
            lines.append(
                #"{"jsonrpc":"2.0","id":\#(index),"method":"addWidget","params":{"kind":"WellBehavedWidget","family":"systemSmall"}}"#)
            if index.isMultiple(of: 3) {
                lines.append(
                    #"{"jsonrpc":"2.0","id":\#(1000 + index),"method":"reloadTimelines","params":{"kind":"WellBehavedWidget"}}"#)
            }
        }
        let killAfter = Int.random(in: 0...lines.count, using: &random)
        let context = "seed \(seed) (WIDGETHOST_FILLKILL_SEED), killed after \(killAfter) of \(lines.count) replies"
        // Written in a few large pieces, as a pipelining client's buffer goes out.
        var pieces = lines[...]
        while !pieces.isEmpty {
            let size = Int.random(in: 1...40, using: &random)
            socket.send(pieces.prefix(size).joined(separator: "\n"))
            pieces = pieces.dropFirst(size)
        }
        var acknowledged: [String] = []
        var charged: [String: Int] = [:]
        for _ in 0..<killAfter {
            let reply = try #require(socket.receive(), "no reply; \(context)")
            let result = reply.objectValue?["result"]?.objectValue
            if case .string(let id)? = result?["widget"]?.objectValue?["id"] { acknowledged.append(id) }
            if case .array(let outcomes)? = result?["outcomes"] {
                for outcome in outcomes.compactMap(\.objectValue)
                where outcome["outcome"] == .string("started") && outcome["budgeted"] == .bool(true) {
                    guard case .string(let id)? = outcome["id"], case .integer(let used)? = outcome["budget"]?.objectValue?["used"]
                    else { continue }
                    charged[id] = max(charged[id] ?? 0, used)
                }
            }
        }
        daemon.kill9()
        // The old extension reads what reached its stdin before the kill, then ends.
        let log = daemon.directory + "/groups/group.com.fixture.wellbehaved/requests.log"
        var seen = -1
        var timelineRequests = 0
        for _ in 0..<100 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            timelineRequests = text.split(separator: "\n").filter { $0 == "timeline/get" }.count
            if text.utf8.count == seen { break }
            seen = text.utf8.count
            usleep(100_000)
        }

        try daemon.start()
        let client = try ControlClient(socketPath: daemon.socket)
        let status: StatusResult = try client.call(.status, params: StatusParams())
        let ledgers = Dictionary(uniqueKeysWithValues: status.widgets.map { ($0.widget.id, $0.budget.ledger.count) })
        let lost = acknowledged.filter { ledgers[$0] == nil }
        #expect(lost.isEmpty, "acknowledged but missing after the restart: \(lost); \(context)")
        for (id, used) in charged.sorted(by: { $0.key < $1.key }) {
            #expect((ledgers[id] ?? 0) >= used, "\(id) was told \(used) used, \(ledgers[id] ?? 0) stored; \(context)")
        }
        // Every timeline/get the extension saw was a widget's first (exempt) reload, stored as
        // running or finished, or a charge that is stored: none left before its write.
        let started = status.widgets.filter { $0.lastOutcome != nil || $0.reloadRunning }.count
        let stored = started + ledgers.values.reduce(0, +)
        #expect(timelineRequests <= stored, "the extension saw \(timelineRequests) timeline/get, \(stored) accounted for; \(context)")
    }
}
