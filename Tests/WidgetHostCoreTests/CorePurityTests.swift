import Foundation
import Testing

/// `scripts/check-core-purity.sh` (run by `make test`) keeps the core deterministic. Each
/// forbidden call must trip it, naming the file, the line and what to do instead.
@Suite("Core purity check")
struct CorePurityTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/check-core-purity.sh").path

    static let forbidden: [(code: String, why: String)] = [
        ("let now = Date()", "reads the clock"),
        ("let now = Date.now", "reads the clock"),
        ("let start = ContinuousClock.now", "reads a clock"),
        ("let calendar = Calendar.current", "reads the machine's settings"),
        ("let zone = TimeZone.current", "reads the machine's settings"),
        ("let locale = Locale.current", "reads the machine's settings"),
        ("let id = UUID()", "makes a random id"),
        ("let roll = Int.random(in: 1...6)", "reads a random source"),
        ("let x = Double.random(in: 0..<1)", "reads a random source"),
        ("let pick = ids.randomElement()", "reads a random source"),
        ("let order = ids.shuffled()", "reads a random source"),
        ("var generator = SystemRandomNumberGenerator()", "reads a random source"),
        ("let value = arc4random()", "reads a random source"),
        (#"let text = try String(contentsOfFile: "/etc/hostname", encoding: .utf8)"#, "reads files"),
        ("let data = try Data(contentsOf: url)", "reads files"),
        ("let exists = FileManager.default.fileExists(atPath: path)", "reads files"),
        (#"let home = ProcessInfo.processInfo.environment["HOME"]"#, "reads the environment"),
        ("import Glibc", "imports system I/O"),
        ("import NIOCore", "imports system I/O"),
    ]

    private func check(_ directory: String) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.script, directory]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private func directory(with code: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("core-purity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "import Foundation\n\n\(code)\n".write(toFile: path + "/Rule.swift", atomically: true, encoding: .utf8)
        return path
    }

    @Test("Every forbidden call fails the check, naming the line and why", arguments: forbidden)
    func forbiddenCall(code: String, why: String) throws {
        let path = try directory(with: code)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try check(path)
        #expect(result.status == 1)
        #expect(result.errors.contains("\(path)/Rule.swift:3: error: \(why)"), "\(result.errors)")
        #expect(result.errors.contains("    \(code)"))
    }

    @Test("What the core may use passes: a calendar, time zone and generator it is given")
    func allowedCalls() throws {
        let path = try directory(
            with: """
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: "UTC")!
                func jitter(using generator: inout some RandomNumberGenerator) -> UInt64 { generator.next() }
                // The caller's clock gives the date, not Date.init.
                """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try check(path)
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test("The core itself passes")
    func corePasses() throws {
        let result = try check("Sources/WidgetHostCore")
        #expect(result.status == 0, "\(result.errors)")
    }
}
