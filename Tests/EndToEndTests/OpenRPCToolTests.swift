import Foundation
import Testing
import WidgetHostProtocol

/// The OpenRPC documents as tools read them: validated against the OpenRPC meta-schema by
/// Tests/OpenRPC/validate_documents.py, and used by a second client, Tests/OpenRPC/openrpc_client.py,
/// written from docs/openrpc.json alone, which calls every method it describes against the real
/// daemon. Both run on the jsonschema package in .build/python (scripts/ensure-python-packages.sh).
@Suite("OpenRPC tools: the meta-schema and a Python client from the document alone", .serialized)
struct OpenRPCToolTests {
    static let root = RealDaemon.packageRoot
    static let tools = root.appendingPathComponent("Tests/OpenRPC")

    /// The virtual environment's python, made (from PyPI) if it is missing.
    static func python() throws -> String {
        let ensure = try run("/bin/bash", [root.appendingPathComponent("scripts/ensure-python-packages.sh").path])
        try #require(ensure.status == 0, "scripts/ensure-python-packages.sh failed: \(ensure.stderr)")
        return try #require(ensure.stdout.split(separator: "\n").last.map(String.init))
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> CLIRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8"]
        // stderr goes to a file, so that neither pipe can fill while the other is read.
        let errorPath = NSTemporaryDirectory() + "openrpc-tool-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return CLIRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    @Test("docs/openrpc.json and docs/openrpc-extension.json are valid OpenRPC documents")
    func documentsValidate() throws {
        let result = try Self.run(try Self.python(), [Self.tools.appendingPathComponent("validate_documents.py").path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("openrpc.json: valid OpenRPC document: \(ControlMethod.allCases.count) methods"), "\(result.stdout)")
        #expect(result.stdout.contains("openrpc-extension.json: valid OpenRPC document: \(ExtensionMethod.allCases.count) methods"))
    }

    @Test("The validator refuses a document that breaks the meta-schema, a reference or an example")
    func validatorCanFail() throws {
        let directory = try TemporaryDirectory()
        let original = try String(contentsOf: Self.root.appendingPathComponent("docs/openrpc.json"), encoding: .utf8)
        let cases = [
            ("\"paramStructure\": \"by-name\"", "\"paramStructure\": \"by-anything\"", "by-anything"),
            ("\"$ref\": \"#/components/schemas/StatusResult\"", "\"$ref\": \"#/components/schemas/Nope\"", "does not resolve"),
            // The first "family" is addWidget's param: its example then names a param it does not have.
            ("\"name\": \"family\",", "\"name\": \"size\",", "param \"family\" is not a param of addWidget"),
        ]
        for (index, (from, to, expected)) in cases.enumerated() {
            try #require(original.contains(from), "docs/openrpc.json no longer contains \(from)")
            let path = directory.path + "/broken-\(index).json"
            let range = try #require(original.range(of: from))
            try original.replacingCharacters(in: range, with: to).write(toFile: path, atomically: true, encoding: .utf8)
            let result = try Self.run(try Self.python(), [Self.tools.appendingPathComponent("validate_documents.py").path, path])
            #expect(result.status == 1, "\(to): \(result.stdout)")
            #expect(result.stdout.contains(expected), "\(to): \(result.stdout)")
        }
    }

    @Test("A Python client written from docs/openrpc.json alone calls every method against the real daemon")
    func pythonClient() throws {
        let plugins = try ExampleBundle.pluginDirectory(holding: "BirthdayReminders")
        defer { try? FileManager.default.removeItem(atPath: plugins) }
        let daemon = try RealDaemon(extraPluginPaths: [plugins])
        let result = try Self.run(
            try Self.python(), [Self.tools.appendingPathComponent("openrpc_client.py").path, "--socket", daemon.socket])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let summary = try #require(result.stdout.split(separator: "\n").first { $0.contains("methods exercised:") }, "\(result.stdout)")
        // "21 methods exercised: addWidget, status, …; 0 failures in 3.2 s"
        let list = summary.split(separator: ":", maxSplits: 1).last?.split(separator: ";").first ?? ""
        let exercised = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(exercised == Set(ControlMethod.allCases.map(\.rawValue)), "\(summary)")
        #expect(summary.contains("; 0 failures"), "\(result.stdout)")
    }
}
