import Foundation

/// NDJSON over a pair of descriptors (a Unix socket, or a child's stdin/stdout pipes),
/// with blocking reads and no parsing: the benchmarks time bytes, not JSON.
final class LineChannel {
    let input: Int32
    let output: Int32
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 256 * 1024)

    init(reading input: Int32, writing output: Int32) {
        self.input = input
        self.output = output
    }

    /// Connects to a Unix socket.
    convenience init(connectingTo path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw BenchError("cannot connect to \(path): \(reason)")
        }
        self.init(reading: descriptor, writing: descriptor)
    }

    func close() {
        Glibc.close(input)
        if output != input { Glibc.close(output) }
    }

    func write(_ line: String) throws {
        try write(Array(line.utf8))
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw BenchError("write failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// The next line without its newline; throws at end of stream.
    func readLine() throws -> [UInt8] {
        var searchFrom = 0
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            searchFrom = buffer.count
            let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw BenchError("end of stream") }
            buffer += chunk[0..<count]
        }
    }

    /// Whether a complete line or more bytes arrive within `timeout` seconds.
    func hasInput(within timeout: Double) -> Bool {
        if buffer.contains(UInt8(ascii: "\n")) { return true }
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, Int32(timeout * 1000)) > 0
    }

    func readString() throws -> String { String(decoding: try readLine(), as: UTF8.self) }
}

/// A child started with `posix_spawn` and pipes on stdin/stdout (stderr to /dev/null):
/// the least a host must do to run an extension, used for the floors.
struct SpawnedChild {
    let pid: pid_t
    let channel: LineChannel

    static func spawn(_ executable: String, arguments: [String] = [], environment: [String: String] = [:]) throws
        -> SpawnedChild
    {
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0 else { throw BenchError("pipe failed") }
        for descriptor in [stdinPipe[1], stdoutPipe[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, stdinPipe[0])
        posix_spawn_file_actions_addclose(&actions, stdoutPipe[1])
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        Glibc.close(stdinPipe[0])
        Glibc.close(stdoutPipe[1])
        guard result == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))") }
        return SpawnedChild(pid: pid, channel: LineChannel(reading: stdoutPipe[0], writing: stdinPipe[1]))
    }

    /// Closes stdin (an extension exits on end of input) and reaps the child.
    func finish() {
        channel.close()
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
