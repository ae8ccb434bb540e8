import Foundation
import WidgetHostProtocol

/// A built example extension run as the host runs it: a cleared environment with only the
/// app group containers it is entitled to, JSON-RPC lines on stdin, replies on stdout.
struct ExtensionUnderTest {
    let executable: URL
    var environment: [String: String]

    /// `name` is the executable's product name, built beside this test bundle.
    init(_ name: String, appGroups: [String: URL] = [:], timeZone: String = "UTC") {
        executable = Self.productsDirectory.appendingPathComponent(name)
        environment = ["TZ": timeZone, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        if !appGroups.isEmpty {
            environment["WIDGETHOST_APP_GROUPS"] = appGroups.map { "\($0.key)=\($0.value.path)" }.sorted().joined(separator: ":")
        }
    }

    static var productsDirectory: URL {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug")
    }

    /// Sends each request (method and params) with ids 1, 2, …, closes stdin and returns
    /// the reply lines as written, without their newlines.
    func replyLines(_ requests: [(method: String, params: JSONValue)]) throws -> [[UInt8]] {
        let process = Process()
        process.executableURL = executable
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        for (index, request) in requests.enumerated() {
            let line = JSONValue.object([
                "jsonrpc": "2.0", "id": .integer(index + 1), "method": .string(request.method), "params": request.params,
            ])
            text += String(decoding: try JSONEncoder().encode(line), as: UTF8.self) + "\n"
        }
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data.split(separator: UInt8(ascii: "\n")).map { Array($0) }
    }

    /// Sends each request (method and params) with ids 1, 2, …, closes stdin and returns
    /// the `result` objects in id order. A JSON-RPC error fails the test with its message.
    func call(_ requests: [(method: String, params: JSONValue)]) throws -> [JSONValue] {
        var results: [Int: JSONValue] = [:]
        for line in try replyLines(requests) {
            let reply = try JSONDecoder().decode(JSONValue.self, from: Data(line))
            guard case .object(let fields) = reply, case .integer(let id)? = fields["id"] else { continue }
            if let error = fields["error"] { throw ExtensionReplyError(detail: "\(error)") }
            results[id] = fields["result"] ?? .null
        }
        return try (1...requests.count).map { id in
            guard let result = results[id] else { throw ExtensionReplyError(detail: "no reply to request \(id)") }
            return result
        }
    }

    func timeline(kind: String, family: String, now: String = "2026-12-08T12:00:00Z") throws -> JSONValue {
        try call([("timeline/get", ["kind": .string(kind), "family": .string(family), "widgetId": "w1", "now": .string(now)])])[0]
    }
}

struct ExtensionReplyError: Error, CustomStringConvertible {
    let detail: String
    var description: String { detail }
}

extension JSONValue {
    subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    var arrayCount: Int? {
        guard case .array(let items) = self else { return nil }
        return items.count
    }
}
