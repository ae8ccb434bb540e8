import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An App Group container: a directory `2770` in the daemon's group, so that an app's user
/// in that group can write there and what it writes stays in the group (the setgid bit).
///
/// Under `widgethostd.service` two things stand in the way of the obvious `mkdir` + `chmod`:
/// `UMask=0077` strips the group bits from `mkdir`, and `RestrictSUIDSGID=yes` refuses any
/// `chmod`/`mkdir` whose mode has `S_ISGID` (EPERM), while a plain `chmod 0770` clears the
/// setgid bit the directory inherited from its setgid parent (tmpfiles.d makes `AppGroups`
/// `2770`). So the container is made with `mkdir 0770` under a umask of `0007` — it inherits
/// `S_ISGID` and the group from the parent — and `chmod` is used only to add the bit where the
/// parent lacks it (outside systemd, where no filter refuses it).
public enum AppGroupContainer {
    public static let mode: mode_t = 0o770

    /// Makes `path` (and its parent, if missing) unless it exists; returns its mode bits.
    @discardableResult
    public static func make(at path: String) throws -> mode_t {
        let parent = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: parent) {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        var info = stat()
        if stat(path, &info) != 0 {
            // umask is per process: for the length of this one mkdir, a file another thread
            // creates (or an extension spawned then) gets 0007 instead of the unit's 0077 — at
            // most access for the daemon's own group, never for others.
            let previous = umask(0o007)
            let made = mkdir(path, mode)
            let error = errno
            umask(previous)
            guard made == 0 || error == EEXIST else { throw AppGroupContainerError(path: path, errno: error) }
            guard stat(path, &info) == 0 else { throw AppGroupContainerError(path: path, errno: errno) }
        }
        if info.st_mode & S_ISGID == 0 {
            // Works where no seccomp filter refuses S_ISGID; under the unit the parent's bit was
            // inherited already. EPERM (the filter) leaves a plain 0770 container.
            if chmod(path, mode | S_ISGID) == 0 { info.st_mode |= S_ISGID }
        }
        return info.st_mode & 0o7777
    }
}

public struct AppGroupContainerError: Error, CustomStringConvertible {
    public let path: String
    public let errno: Int32
    public var description: String { "cannot create the app group container \(path): \(String(cString: strerror(errno)))" }
}
