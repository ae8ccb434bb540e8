import Foundation
import Logging
import NIOCore
import WidgetHostBundles
import WidgetHostConfiguration
import WidgetHostCore
import Testing
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
import WidgetHostDriver
#endif

/// The package's root directory (systemd/, scripts/, .build/).
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// What a finished command printed.
struct CommandResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var output: String { standardOutput + standardError }
}

/// Runs `executable` (a path, or a name looked up on PATH) to the end.
func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    directory: String = packageRoot
) throws -> CommandResult {
    let process = Process()
    if executable.hasPrefix("/") {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
    }
    if let environment { process.environment = environment }
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes while the process runs, so that neither fills up and blocks it.
    let errorData = ErrorDrain(error.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData.wait(), as: UTF8.self))
}

/// Reads a pipe to its end on another thread.
private final class ErrorDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Where `swift build` put the products (widgethostd, widgethost): `swift build
/// --show-bin-path`, or else the directory of this test binary, which is the same place.
let builtProductsDirectory: String = {
    if let result = try? runCommand("swift", ["build", "--show-bin-path"]), result.status == 0 {
        let path = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        if !path.isEmpty { return path }
    }
    // On Linux the test bundle is one executable file, …/debug/widgethostPackageTests.xctest.
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    return URL(fileURLWithPath: executable).deletingLastPathComponent().path
}()

/// A new directory under /tmp with a short name (a Unix socket path must fit in 108 bytes).
func makeShortTemporaryDirectory() throws -> String {
    var template = Array("/tmp/whs-XXXXXX".utf8CString)
    guard let pointer = mkdtemp(&template) else { throw POSIXError(.EIO) }
    return String(cString: pointer)
}

/// A datagram socket standing in for systemd's NOTIFY_SOCKET: it receives what the daemon
/// tells its service manager, each datagram with the time it arrived.
final class NotifySocket {
    let path: String
    let descriptor: CInt
    private let directory: String

    init() throws {
        directory = try makeShortTemporaryDirectory()
        path = "\(directory)/notify"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit {
        close(descriptor)
        unlink(path)
        rmdir(directory)
    }

    /// The next datagram, or nil after `timeout` seconds without one.
    func receive(timeout: TimeInterval) -> (message: String, at: ContinuousClock.Instant)? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(max(0, timeout * 1000))) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return (String(decoding: buffer[0..<count], as: UTF8.self), .now)
    }

    /// Datagrams until one satisfies `predicate` (returned last), within `timeout` seconds.
    func receive(until predicate: (String) -> Bool, timeout: TimeInterval = 20) -> [String] {
        let end = ContinuousClock.now + .seconds(timeout)
        var messages: [String] = []
        while ContinuousClock.now < end, let (message, _) = receive(timeout: (end - .now).seconds) {
            messages.append(message)
            if predicate(message) { break }
        }
        return messages
    }

    /// Everything that arrives within `duration` seconds.
    func collect(for duration: TimeInterval) -> [(message: String, at: ContinuousClock.Instant)] {
        let end = ContinuousClock.now + .seconds(duration)
        var messages: [(String, ContinuousClock.Instant)] = []
        while ContinuousClock.now < end, let received = receive(timeout: (end - .now).seconds) {
            messages.append(received)
        }
        return messages
    }
}

extension Duration {
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// The `KEY=value` assignments of one notification datagram.
func assignments(_ message: String) -> [String: String] {
    var result: [String: String] = [:]
    for line in message.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "=") else { continue }
        result[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return result
}

/// An in-process daemon built for the systemd tests: one well-behaved fixture extension, a
/// temporary directory with its own stand-in for /etc/localtime. Not started: a test sets
/// NOTIFY_SOCKET / WATCHDOG_USEC first (in an exit-test child process, so that no other
/// test's daemon notifies the same socket).
final class SystemdDaemonFixture: @unchecked Sendable {
    let directory: String
    let daemon: Daemon
    var socketPath: String { daemon.options.control.socketPath }
    var localtimePath: String { daemon.options.localtimePath }

    init(configure: (inout DaemonOptions) -> Void = { _ in }) throws {
        directory = try makeShortTemporaryDirectory()
        let bundle = "\(directory)/plugins/WellBehaved.appex"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        // The extension's code lives in its bundle: the sandbox lets it read nothing outside.
        try FileManager.default.copyItem(atPath: fixtureScript, toPath: "\(bundle)/extension.py")
        try "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/extension.py\" \"$@\"\n".write(
            toFile: "\(bundle)/WellBehaved", atomically: true, encoding: .utf8)
        chmod("\(bundle)/WellBehaved", 0o755)
        let found = [
            ExtensionBundle(
                directory: URL(fileURLWithPath: bundle), bundleID: "com.fixture.wellbehaved.widget",
                displayName: "WellBehaved", executable: URL(fileURLWithPath: "\(bundle)/WellBehaved"), appGroups: [])
        ]
        try FileManager.default.createDirectory(atPath: "\(directory)/etc", withIntermediateDirectories: true)
        symlink("/usr/share/zoneinfo/UTC", "\(directory)/etc/localtime")
        try "boot-1\n".write(toFile: "\(directory)/boot_id", atomically: true, encoding: .utf8)
        var options = DaemonOptions(
            host: HostConfiguration(), control: ControlSettings(socketPath: "\(directory)/control.sock"),
            pluginPaths: ["\(directory)/plugins"], appGroupsPath: "\(directory)/AppGroups",
            statePath: "\(directory)/state")
        options.bootIDPath = "\(directory)/boot_id"
        options.localtimePath = "\(directory)/etc/localtime"
        configure(&options)
        var logger = Logger(label: "widgethostd-systemd-test")
        logger.logLevel = .critical
        daemon = try Daemon(options: options, store: InMemoryStateStore(), logger: logger, scanBundles: { BundleScan(bundles: found) })
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
