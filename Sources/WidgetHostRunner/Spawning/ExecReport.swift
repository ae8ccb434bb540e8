import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `posix_spawn` does for its own exec, done for a shim's: a close-on-exec pipe whose
/// write end the shim holds as descriptor 3. End of file means the extension's `execve`
/// succeeded; `errno N` or `refused SENTENCE` means no extension runs, and the spawn fails
/// with the same error a direct `posix_spawn` would have given (a missing interpreter is
/// still "cannot start …: No such file or directory").
struct ExecReport {
    let executable: String
    let readEnd: CInt
    let writeEnd: CInt

    init(executable: String) throws(SpawnError) {
        guard let pipe = CloseOnExecPipe.make() else { throw SpawnError(executable: executable, errno: errno) }
        self.executable = executable
        readEnd = pipe[0]
        writeEnd = pipe[1]
    }

    /// The spawn itself failed: nothing will write.
    func abandon() {
        close(readEnd)
        close(writeEnd)
    }

    /// The parent's copy of the write end, closed once the child holds its own: from then on
    /// end of file means the shim exec'd the extension or died.
    func closeWriteEnd() {
        close(writeEnd)
    }

    /// Blocks until the shim has exec'd the extension (well under a millisecond) or failed;
    /// on failure reaps it, closes its pipes and throws. (The daemon does not block: it
    /// watches `readEnd` on its event loop, `StartedProcess`.)
    func wait(for spawned: SpawnedProcess) throws(SpawnError) {
        closeWriteEnd()
        defer { close(readEnd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        guard let error = Self.error(from: bytes, executable: executable) else { return }
        var status: CInt = 0
        while waitpid(spawned.pid, &status, 0) < 0, errno == EINTR {}
        for descriptor in [spawned.stdinWrite, spawned.stdoutRead, spawned.stderrRead] { close(descriptor) }
        throw error
    }

    /// What the shim wrote before the pipe closed: nothing (the extension runs), `errno N`
    /// (its execve failed) or `refused SENTENCE`.
    static func error(from bytes: [UInt8], executable: String) -> SpawnError? {
        guard !bytes.isEmpty else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("errno "), let number = CInt(text.dropFirst("errno ".count)) {
            return SpawnError(executable: executable, errno: number)
        }
        return SpawnError(executable: executable, reason: text.hasPrefix("refused ") ? String(text.dropFirst(8)) : text)
    }
}
