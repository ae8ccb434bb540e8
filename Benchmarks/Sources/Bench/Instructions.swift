import Foundation

/// Instruction counts from valgrind's callgrind: repeatable on a loaded machine, where
/// wall-clock times move by tens of percent. A daemon figure per operation is the difference
/// between two runs of the daemon that differ only in how many operations they serve, so that
/// start-up, the scan and shutdown cancel out. Only the process named is counted (no
/// `--trace-children`): the daemon, not its extension.
enum Instructions {
    static let valgrind = "/usr/bin/valgrind"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: valgrind) }
    /// Where a run's valgrind summary goes is the process's stderr; the profile itself is not kept.
    static let arguments = ["--tool=callgrind", "--callgrind-out-file=/dev/null"]

    /// valgrind 3.19 cannot read the DWARF 5 of a `-g` release build ("Possibly corrupted
    /// debuginfo file"): callgrind runs a copy with `objcopy --strip-debug` (the symbol table
    /// stays).
    static func stripped(_ path: String) throws -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let copy = strippedDirectory + "/" + name
        if FileManager.default.isExecutableFile(atPath: copy) { return copy }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/objcopy")
        process.arguments = ["--strip-debug", path, copy]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("objcopy --strip-debug \(path) failed") }
        return copy
    }

    nonisolated(unsafe) private static var strippedPath: String?
    private static var strippedDirectory: String {
        if let strippedPath { return strippedPath }
        var template = Array("/tmp/whbench-stripped-XXXXXX".utf8CString)
        let path = mkdtemp(&template).map { String(cString: $0) } ?? "/tmp"
        strippedPath = path
        return path
    }

    /// "==123== Collected : 4567" in valgrind's summary.
    static func collected(in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.contains("Collected :") {
            return line.split(separator: ":").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
        return nil
    }

    /// Runs a command to its end under callgrind and returns the instructions it executed;
    /// `requireSuccess`: throws when it exits other than 0.
    static func command(
        _ executable: String, _ arguments: [String], environment: [String: String], requireSuccess: Bool = false
    ) throws -> Double {
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("whbench-cg-\(UUID().uuidString).log").path
        defer { unlink(logPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = Self.arguments + ["--log-file=" + logPath, try stripped(executable)] + arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        if requireSuccess, process.terminationStatus != 0 {
            throw BenchError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus) under callgrind")
        }
        guard let count = collected(in: log) else {
            throw BenchError("callgrind gave no count for \(executable) \(arguments.joined(separator: " ")): \(log.suffix(400))")
        }
        return count
    }

    /// Instructions the daemon spends per operation: `operations(daemon, n)` is run on a fresh
    /// daemon under callgrind with `small` and with `large` operations.
    static func daemonPerOperation(
        settings: String, small: Int, large: Int, operations: (DaemonProcess, Int) throws -> Void
    ) throws -> Double {
        func run(_ count: Int) throws -> Double {
            let daemon = try DaemonProcess(settings: settings, underCallgrind: true)
            defer { daemon.stop() }
            try operations(daemon, count)
            return try daemon.stopCountingInstructions()
        }
        let few = try run(small)
        let many = try run(large)
        return (many - few) / Double(large - small)
    }
}
