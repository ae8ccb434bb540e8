import CSystemd
import Foundation

/// Notices the system time zone changing: an inotify watch on the directory that holds
/// `/etc/localtime` (the link itself is replaced — `timedatectl set-timezone` renames a new
/// symlink over it, `ln -sf` unlinks and recreates it — so a watch on the file would be lost
/// with the old inode). Events for other names in the directory are ignored. The event loop
/// reads the descriptor (`DescriptorChannel`).
final class TimeZoneWatch {
    static let events: UInt32 = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CLOSE_WRITE)

    let descriptor: CInt
    /// The watched file, e.g. `/etc/localtime` (tests use a temporary directory).
    let path: String
    private let name: String

    init(localtimePath path: String = "/etc/localtime") throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        name = url.lastPathComponent
        descriptor = inotify_init1(CInt(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw TimeWatchError.current("inotify_init1") }
        let directory = url.deletingLastPathComponent().path
        let mask = Self.events | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            let error = TimeWatchError.current("inotify_add_watch(\(directory))")
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    /// True when a read of the descriptor holds an event for the zone file (or a queue
    /// overflow, so that one may have been lost).
    func concernsFile(_ events: ArraySlice<UInt8>) -> Bool {
        Self.concernsFile(named: name, events: events)
    }

    /// One inotify event (the fixed part of `struct inotify_event` and its name).
    struct Event: Equatable {
        var mask: UInt32
        var name: String
    }

    /// Splits a buffer read from an inotify descriptor into its events.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [Event] {
        let header = 16  // int wd; uint32_t mask, cookie, len; then len bytes of name
        return bytes.withUnsafeBytes { raw in
            var events: [Event] = []
            var offset = 0
            while raw.count - offset >= header {
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameEnd = min(offset + header + length, raw.count)
                let name = raw[(offset + header)..<nameEnd].prefix { $0 != 0 }
                events.append(Event(mask: mask, name: String(decoding: name, as: UTF8.self)))
                offset = nameEnd
            }
            return events
        }
    }

    /// True when `events` change the file `name`, or report a queue overflow.
    static func concernsFile(named name: String, events bytes: ArraySlice<UInt8>) -> Bool {
        parse(bytes).contains { event in
            event.mask & UInt32(IN_Q_OVERFLOW) != 0 || (event.name == name && event.mask & events != 0)
        }
    }
}
