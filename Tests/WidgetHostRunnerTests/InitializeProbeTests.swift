import Foundation
import NIOCore
import NIOPosix
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
@testable import WidgetHostDaemon
@testable import WidgetHostRunner

/// The catalog's question to a bundle, asked by either face with the same sentences.
@Suite("The initialize probe", .tags(.process), .serialized)
struct InitializeProbeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// A shell script standing in for the extension (nil: the fixture extension).
        var script: String?
        var expected: Result<[String], InitializeProbe.Failure>
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "answers", script: nil, expected: .success(["FixtureWidget"])),
        Case(name: "exits", script: "exit 1", expected: .failure(.failed(.crashed("exited with status 1 before answering initialize")))),
        Case(name: "garbage", script: "read line; echo garbage; sleep 5",
             expected: .failure(.failed(.protocolError("stdout line is not a JSON-RPC message (Parse error: invalid JSON)")))),
        Case(name: "error", script: #"read line; echo '{"jsonrpc":"2.0","id":"initialize-1","error":{"code":-32603,"message":"boom"}}'; sleep 5"#,
             expected: .failure(.failed(.protocolError("initialize answered with error -32603: boom")))),
        Case(name: "no widgets", script: #"read line; echo '{"jsonrpc":"2.0","id":"initialize-1","result":{"widgets":[]}}'; sleep 5"#,
             expected: .failure(.noWidgets)),
        Case(name: "silent", script: "sleep 30", expected: .failure(.failed(.timedOut(elapsed: InitializeProbe.timeout)))),
    ]

    private static func launch(_ probe: Case, in directory: String) throws -> ExtensionLaunch {
        guard let script = probe.script else { return FixtureExtension.launch("wellBehaved") }
        let path = "\(directory)/\(probe.name.replacingOccurrences(of: " ", with: "-")).sh"
        try "#!/bin/sh\n\(script)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return ExtensionLaunch(bundleID: "com.test.widget", executable: path, directory: directory, environment: ["PATH": "/usr/bin:/bin"])
    }

    @Test("Each face reads an answer, or its absence, the same way", arguments: cases, Face.allCases.filter { $0 != .session })
    func probe(_ probe: Case, face: Face) throws {
        let directory = NSTemporaryDirectory() + "probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let launch = try Self.launch(probe, in: directory)
        let result = try face == .synchronous
            ? InitializeProbe.run(launch, limits: ExtensionLimits()) : Self.onEventLoop(launch)
        switch (result, probe.expected) {
        case (.success(let answer), .success(let kinds)):
            #expect(answer.widgets.map(\.kind) == kinds)
        case (.failure(.failed(.timedOut)), .failure(.failed(.timedOut))):
            break
        case (.failure(.failed(.protocolError(let message))), .failure(.failed(.protocolError(let expected)))):
            #expect(message.hasPrefix(String(expected.prefix(30))), "\(message)")
        default:
            #expect(result.map { $0.widgets.map(\.kind) } == probe.expected)
        }
    }

    private static func onEventLoop(_ launch: ExtensionLaunch) throws -> Result<InitializeResult, InitializeProbe.Failure> {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let table = ProcessTable(eventLoop: loop)
        let result = try loop.flatSubmit {
            ProcessPipes.probe(launch, limits: ExtensionLimits(), spawner: ProcessSpawner(), in: table)
        }.wait()
        try loop.flatSubmit { table.stopAll() }.wait()
        return result
    }

    @Test("A bundle with no widgets is skipped, unless it draws Live Activities")
    func activitiesOnly() {
        #expect(InitializeProbe.widgets(.success(InitializeResult(widgets: []))) == .failure(.noWidgets))
        #expect(InitializeProbe.widgets(.success(InitializeResult(widgets: [], activities: []))) == .failure(.noWidgets))
        let pizza = InitializeResult(widgets: [], activities: ["PizzaDeliveryAttributes"])
        #expect(InitializeProbe.widgets(.success(pizza)) == .success(pizza))
    }

    @Test("The sentences name what is wrong and how to see it by hand")
    func sentences() {
        #expect(InitializeProbe.skipReason(.failed(.crashed("exited with status 1 before answering initialize")), executable: "/b/w")
            == "/b/w: it exited with status 1 before answering initialize; run it by hand with "
                + #"echo '{"jsonrpc":"2.0","id":1,"method":"initialize"}' | /b/w"#)
        #expect(InitializeProbe.skipReason(.failed(.timedOut(elapsed: 5)), executable: "/b/w")
            .hasPrefix("/b/w: it did not answer initialize within 5 s; run it by hand"))
        #expect(InitializeProbe.skipReason(.noWidgets, executable: "/b/w")
            == "/b/w: initialize listed no widgets and no controls; add at least one Widget or ControlWidget to the WidgetBundle's body")
    }

    @Test("A bundle of Control widgets only is accepted; one with neither widgets nor controls is skipped")
    func controlsOnly() {
        let control = ControlDescriptor(kind: "Lamp", displayName: "Lamp", description: "", style: .toggle)
        let controlsOnly = InitializeResult(widgets: [], controls: [control])
        #expect((try? InitializeProbe.widgets(.success(controlsOnly)).get()) == controlsOnly)
        for empty in [InitializeResult(widgets: []), InitializeResult(widgets: [], controls: [])] {
            guard case .failure(.noWidgets) = InitializeProbe.widgets(.success(empty)) else {
                Issue.record("\(empty) should be skipped")
                continue
            }
        }
    }
}
