#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose ends close on exec: the extension spawner's stdio pipes. (`pipe2` is not visible to Swift without _GNU_SOURCE.
/// The gap between `pipe` and `fcntl` cannot leak an end into an extension: the spawner
/// closes every descriptor from 3 up in the child.)
public enum CloseOnExecPipe {
    /// `[read, write]`, or nil with `errno` set.
    public static func make() -> [CInt]? {
        var fds: [CInt] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fds
    }
}
