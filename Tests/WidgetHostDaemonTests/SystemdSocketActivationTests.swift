import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Socket activation (sd_listen_fds(3)): the adapter in a child process with descriptors
/// placed where systemd puts them, and the real widgethostd under `systemd-socket-activate`.
@Suite("systemd socket activation", .tags(.process), .serialized)
struct SystemdSocketActivationTests {
    @Test("The descriptor named control is chosen, else the first")
    func choice() {
        #expect(SocketActivation.choose(named: "control", among: ["control"]) == 0)
        #expect(SocketActivation.choose(named: "control", among: ["metrics", "control"]) == 1)
        #expect(SocketActivation.choose(named: "control", among: ["widgethostd.socket"]) == 0)
        #expect(SocketActivation.choose(named: "control", among: []) == 0)
    }

    @Test("Without LISTEN_FDS there is nothing to adopt")
    func notActivated() async {
        await #expect(processExitsWith: .success) {
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_PID")
            let none = try SocketActivation.listeningDescriptor()
            #expect(none == nil)
            // LISTEN_PID of another process: the descriptors are not ours.
            setenv("LISTEN_FDS", "1", 1)
            setenv("LISTEN_PID", "\(getpid() + 1)", 1)
            let notOurs = try SocketActivation.listeningDescriptor()
            #expect(notOurs == nil)
        }
    }

    @Test("The passed listening socket named control is returned, close-on-exec, and LISTEN_* leave the environment")
    func adoptsNamedSocket() async {
        await #expect(processExitsWith: .success) {
            let directory = try makeShortTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let metrics = try listeningSocket(at: "\(directory)/metrics")
            let control = try listeningSocket(at: "\(directory)/control")
            try withDescriptorsFromThree([metrics, control]) {
                setenv("LISTEN_FDS", "2", 1)
                setenv("LISTEN_PID", "\(getpid())", 1)
                setenv("LISTEN_FDNAMES", "metrics:control", 1)
                let descriptor = try SocketActivation.listeningDescriptor()
                #expect(descriptor == 4)
                #expect(sameSocket(4, control))
                #expect(fcntl(4, F_GETFD) & FD_CLOEXEC != 0)
                #expect(getenv("LISTEN_FDS") == nil && getenv("LISTEN_PID") == nil && getenv("LISTEN_FDNAMES") == nil)

                setenv("LISTEN_FDS", "2", 1)
                setenv("LISTEN_PID", "\(getpid())", 1)
                setenv("LISTEN_FDNAMES", "a:b", 1)
                let first = try SocketActivation.listeningDescriptor()
                #expect(first == 3, "none named control: the first")
            }
        }
    }

    @Test("A passed descriptor that is not a listening stream socket is an error that says what to fix")
    func rejectsDatagramSocket() async {
        await #expect(processExitsWith: .success) {
            let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            try withDescriptorsFromThree([datagram]) {
                setenv("LISTEN_FDS", "1", 1)
                setenv("LISTEN_PID", "\(getpid())", 1)
                setenv("LISTEN_FDNAMES", "control", 1)
                #expect(throws: SocketActivationError.notAListeningStreamSocket(descriptor: 3, name: "control")) {
                    try SocketActivation.listeningDescriptor()
                }
            }
            #expect(
                SocketActivationError.notAListeningStreamSocket(descriptor: 3, name: "control").description
                    .contains("use ListenStream="))
        }
    }

    @Test(
        "systemd-socket-activate: the first connection starts widgethostd, which answers it; SIGTERM stops it with STOPPING=1",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "\(builtProductsDirectory)/widgethostd"),
            "widgethostd is not built (swift build --show-bin-path has none); run `swift build` first"))
    func endToEnd() throws {
        let daemon = "\(builtProductsDirectory)/widgethostd"
        let directory = try makeShortTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = "\(directory)/widgethost.sock"
        try FileManager.default.createDirectory(atPath: "\(directory)/plugins", withIntermediateDirectories: true)
        let config = """
            [socket]
            path = "\(socketPath)"
            [state]
            path = "\(directory)/state"
            [plugins]
            paths = ["\(directory)/plugins"]
            [app_groups]
            path = "\(directory)/AppGroups"
            """
        try config.write(toFile: "\(directory)/widgethost.toml", atomically: true, encoding: .utf8)
        let notify = try NotifySocket()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // systemd-socket-activate passes on only PATH, TERM, HOME and USER, and what -E names.
        process.arguments = [
            "systemd-socket-activate", "-l", socketPath, "--fdname=control", "-E", "NOTIFY_SOCKET=\(notify.path)",
            daemon, "--config", "\(directory)/widgethost.toml",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // systemd-socket-activate listens, and starts nothing until a client connects.
        #expect(waitFor { FileManager.default.fileExists(atPath: socketPath) }, "no socket at \(socketPath)")
        usleep(200_000)
        #expect(Self.command(of: process.processIdentifier).hasPrefix("systemd-socket"), "started before any connection")
        #expect(notify.receive(timeout: 0.2) == nil)

        let client = try TestClient(path: socketPath)
        let status: StatusResult = try client.result("status")
        #expect(status.widgets.isEmpty)
        #expect(Self.command(of: process.processIdentifier) == "widgethostd")
        let ready = notify.receive(until: { assignments($0)["READY"] == "1" }, timeout: 10).map(assignments)
        #expect(ready.last?["READY"] == "1", "\(ready)")
        #expect(ready.last?["STATUS"]?.contains("0 widgets") == true, "\(ready)")

        kill(process.processIdentifier, SIGTERM)
        let stopping = notify.receive(until: { assignments($0)["STOPPING"] == "1" }, timeout: 10).map(assignments)
        #expect(stopping.last?["STOPPING"] == "1", "\(stopping)")
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "widgethostd exited \(process.terminationStatus):\n\(log)")
        // Socket activation: the socket belongs to systemd, so the daemon leaves it in place.
        #expect(FileManager.default.fileExists(atPath: socketPath))
    }

    /// `comm` of a process (its executable's name, at most 15 characters).
    static func command(of pid: Int32) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Waits up to `timeout` seconds for `condition`.
func waitFor(timeout: TimeInterval = 20, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// A listening Unix stream socket at `path`.
func listeningSocket(at path: String) throws -> CInt {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(descriptor, 8) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return descriptor
}

/// True when two descriptors are the same socket.
func sameSocket(_ a: CInt, _ b: CInt) -> Bool {
    var first = stat()
    var second = stat()
    return fstat(a, &first) == 0 && fstat(b, &second) == 0 && first.st_ino == second.st_ino && first.st_dev == second.st_dev
}

/// Puts `descriptors` at 3, 4, … (where systemd passes them) for the duration of `body`, and
/// puts back whatever the process had there (the test runner's own descriptors).
func withDescriptorsFromThree(_ descriptors: [CInt], _ body: () throws -> Void) throws {
    let saved = descriptors.indices.map { fcntl(CInt(3 + $0), F_DUPFD_CLOEXEC, 200) }
    let flags = descriptors.indices.map { fcntl(CInt(3 + $0), F_GETFD) }
    for (index, descriptor) in descriptors.enumerated() { dup2(descriptor, CInt(3 + index)) }
    defer {
        for (index, copy) in saved.enumerated() {
            if copy >= 0 {
                dup2(copy, CInt(3 + index))
                _ = fcntl(CInt(3 + index), F_SETFD, flags[index])
                close(copy)
            } else {
                close(CInt(3 + index))
            }
        }
    }
    try body()
}
