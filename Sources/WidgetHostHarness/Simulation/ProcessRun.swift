import Foundation
import WidgetHostCore
import WidgetHostDaemon
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// One extension process for one request, driven synchronously: the simulation stands still
/// (in virtual time) while it runs, so waiting on it with `poll` is all the concurrency needed.
enum ProcessRun {
    enum Result {
        /// The reply's result, and the footprint read when it arrived.
        case response(JSONValue, footprintBytes: Int?)
        case failure(ExtensionFailure)
        /// The timeout passed, or `onSample` said stop; the process was killed.
        case stopped
    }

    /// Spawns `executable`, writes `lines`, and waits up to `timeout` (real seconds) for the
    /// reply with `replyID`, sampling the footprint every `sampleInterval` and passing it to
    /// `onSample` with the elapsed time; `onSample` returning false stops the process.
    static func run(
        executable: String, environment: [String: String], lines: [JSONRPCMessage], replyID: JSONRPCID,
        timeout: TimeInterval, sampleInterval: TimeInterval, onSample: (Int, TimeInterval) -> Bool
    ) -> (Result, elapsed: TimeInterval) {
        let started = ProcessInfo.processInfo.systemUptime
        let result = exchange(
            executable: executable, environment: environment, lines: lines, replyID: replyID, timeout: timeout,
            sampleInterval: sampleInterval, started: started, onSample: onSample)
        return (result, ProcessInfo.processInfo.systemUptime - started)
    }

    private static func exchange(
        executable: String, environment: [String: String], lines: [JSONRPCMessage], replyID: JSONRPCID,
        timeout: TimeInterval, sampleInterval: TimeInterval, started: TimeInterval,
        onSample: (Int, TimeInterval) -> Bool
    ) -> Result {
        let process: SpawnedProcess
        do {
            process = try ProcessSpawner.spawn(executable: executable, environment: environment)
        } catch {
            return .failure(.crashed(error.description))
        }
        let footprints = FootprintReader()
        // A process that dies before reading its input must not take the harness with it.
        signal(SIGPIPE, SIG_IGN)
        defer { finish(process) }

        var input = Data()
        for line in lines { input += (try? line.encodedLine()) ?? Data() }
        _ = input.withUnsafeBytes { write(process.stdinWrite, $0.baseAddress, $0.count) }

        var nextSample = sampleInterval
        var framer = LineFramer(maxLineBytes: 4 * 1024 * 1024 + 64 * 1024)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var stderrOpen = true
        while true {
            let elapsed = ProcessInfo.processInfo.systemUptime - started
            if elapsed >= timeout { return .stopped }
            if elapsed >= nextSample {
                nextSample += sampleInterval
                if let bytes = footprints.footprint(ofProcessGroupLeader: process.pid), !onSample(bytes, elapsed) {
                    return .stopped
                }
                continue
            }
            let wait = min(timeout, nextSample) - elapsed
            var fds = [pollfd(fd: process.stdoutRead, events: Int16(POLLIN), revents: 0)]
            if stderrOpen { fds.append(pollfd(fd: process.stderrRead, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(max(1, (wait * 1000).rounded(.up))))
            if ready < 0, errno == EINTR { continue }
            if stderrOpen, fds.count > 1, fds[1].revents != 0 {
                // stderr goes nowhere in a simulation, but must be drained so the process never blocks on it.
                if read(process.stderrRead, &buffer, buffer.count) <= 0 { stderrOpen = false }
            }
            guard fds[0].revents != 0 else { continue }
            let count = read(process.stdoutRead, &buffer, buffer.count)
            if count <= 0 {
                return .failure(.crashed(exitStatus(of: process.pid).map(\.description) ?? "stdout closed before the reply"))
            }
            for frame in framer.append(buffer[0..<count]) {
                guard case .line(let bytes) = frame else {
                    return .failure(.protocolError("stdout line longer than max_timeline_bytes + 64 KiB"))
                }
                switch JSONRPCMessage.parse(bytes) {
                case .message(.response(let id, let result)) where id == replyID:
                    return .response(result, footprintBytes: footprints.footprint(ofProcessGroupLeader: process.pid))
                case .message(.response(.string(let id), _)) where id.hasPrefix("initialize-"):
                    continue
                case .message(.response(let id, _)):
                    return .failure(.protocolError("reply for unknown id \(id)"))
                case .message(.errorResponse(_, let error)):
                    return .failure(.protocolError("answered with error \(error.code): \(error.message)"))
                case .message:
                    continue
                case .invalid(_, let error):
                    return .failure(.protocolError("stdout line is not a JSON-RPC message (\(error.message))"))
                }
            }
        }
    }

    /// Waits up to 2 s for the process to exit and returns how it ended.
    private static func exitStatus(of pid: pid_t) -> ExitStatus? {
        var status: CInt = 0
        for _ in 0..<400 {
            if waitpid(pid, &status, WNOHANG) == pid { return ExitStatus(waitStatus: status) }
            usleep(5000)
        }
        return nil
    }

    /// Closes stdin (an extension exits when it closes), then kills whatever is left of the
    /// process group and reaps the process.
    private static func finish(_ process: SpawnedProcess) {
        close(process.stdinWrite)
        var status: CInt = 0
        // -1 means there is no such child any more: it was reaped already.
        func gone() -> Bool { waitpid(process.pid, &status, WNOHANG) != 0 }
        var reaped = gone()
        for _ in 0..<40 where !reaped {
            usleep(5000)
            reaped = gone()
        }
        kill(-process.pid, SIGKILL)
        if !reaped {
            kill(process.pid, SIGKILL)
            waitpid(process.pid, &status, 0)
        }
        close(process.stdoutRead)
        close(process.stderrRead)
    }
}
