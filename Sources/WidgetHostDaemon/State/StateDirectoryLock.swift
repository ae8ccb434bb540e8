import Foundation
#if canImport(Glibc)
import Glibc
import WidgetHostDriver
#endif

/// One daemon per state directory: two writing the same database would hand out each
/// other's budget. An exclusive `flock` on `widgethostd.lock`, held for the process's life
/// (the kernel drops it when the process dies, even by kill -9).
public final class StateDirectoryLock: Sendable {
    public let path: String
    private let descriptor: CInt

    public init(directory: String) throws(StateError) {
        path = (directory as NSString).appendingPathComponent("widgethostd.lock")
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .directory(path: directory, reason: error.localizedDescription)
        }
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .directory(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .directory(
                path: directory,
                reason: "another widgethostd is using this state directory (it holds \(path)); stop it first")
        }
    }

    deinit { close(descriptor) }
}
