#if canImport(Glibc)
import Glibc
#endif

/// How a child ended, in words.
public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
    case exited(CInt)
    case signaled(CInt)

    public init(waitStatus status: CInt) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        if status & 0x7f == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signaled(status & 0x7f)
        }
    }

    public var isCleanExit: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal):
            "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        }
    }
}
