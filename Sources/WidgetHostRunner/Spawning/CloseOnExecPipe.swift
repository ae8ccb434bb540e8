import CSpawn
#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose ends close on exec: the extension spawner's stdio pipes, made with one
/// `pipe2(O_CLOEXEC)` (`widgethost_pipe_cloexec`: Swift's Glibc does not show `pipe2`
/// without _GNU_SOURCE), not `pipe` and an `fcntl` for each end.
public enum CloseOnExecPipe {
    /// `[read, write]`, or nil with `errno` set.
    public static func make() -> [CInt]? {
        var fds: [CInt] = [-1, -1]
        let made = fds.withUnsafeMutableBufferPointer { widgethost_pipe_cloexec($0.baseAddress!) }
        return made == 0 ? fds : nil
    }
}
