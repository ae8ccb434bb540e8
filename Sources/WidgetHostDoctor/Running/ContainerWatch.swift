import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Notices any use of an app group container while the placeholder is asked for: an
/// inotify watch on the container and every directory in it, for opens, reads, listings
/// and writes. inotify rather than permissions (root reads anything, and CI often runs as
/// root) or access times (`relatime` and `noatime` mounts hide them). It cannot see a bare
/// `stat` or an `open` of a file that does not exist, which is why the container is seeded
/// with the bundle's sample data first.
final class ContainerWatch {
    static let events = UInt32(
        IN_ACCESS | IN_OPEN | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)

    private let descriptor: CInt
    /// Watch descriptor → the directory it watches, as shown (`group.com.example/configs`).
    private var directories: [CInt: String] = [:]

    /// Watches each container (named by its group id) and everything below it. Call it after
    /// the containers are filled: from here on, any event is the extension's doing.
    init(containers: [(group: String, url: URL)]) throws {
        descriptor = inotify_init1(CInt(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw WatchError(call: "inotify_init1", errno: errno) }
        // Every directory first, then the watches: listing them after would be an event.
        var all: [(URL, String)] = []
        for (group, url) in containers {
            all.append((url, group))
            let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey])
            while let item = walker?.nextObject() as? URL {
                guard (try? item.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true else { continue }
                all.append((item, group + item.path.dropFirst(url.path.count)))
            }
        }
        for (url, shown) in all { try watch(url, shownAs: shown) }
    }

    deinit {
        close(descriptor)
    }

    private func watch(_ url: URL, shownAs shown: String) throws {
        let watch = inotify_add_watch(descriptor, url.path, Self.events | UInt32(IN_ONLYDIR))
        guard watch >= 0 else { throw WatchError(call: "inotify_add_watch(\(url.path))", errno: errno) }
        directories[watch] = shown
    }

    /// The paths used since the watch began, in the order first seen, e.g.
    /// `group.com.example/birthdays.json (opened, read)`.
    func uses() -> [String] {
        var order: [String] = []
        var what: [String: [String]] = [:]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            for event in Self.parse(buffer[0..<count]) {
                let directory = directories[event.watch] ?? "?"
                let path = event.name.isEmpty ? directory + "/" : directory + "/" + event.name
                if what[path] == nil { order.append(path) }
                for word in Self.words(event.mask) where !(what[path] ?? []).contains(word) {
                    what[path, default: []].append(word)
                }
            }
        }
        return order.map { "\($0) (\(what[$0, default: []].joined(separator: ", ")))" }
    }

    private static func words(_ mask: UInt32) -> [String] {
        let names: [(CInt, String)] = [
            (IN_OPEN, "opened"), (IN_ACCESS, "read"), (IN_MODIFY, "written"), (IN_ATTRIB, "attributes changed"),
            (IN_CREATE, "created"), (IN_DELETE, "deleted"), (IN_MOVED_FROM, "renamed away"), (IN_MOVED_TO, "renamed in"),
        ]
        return names.filter { mask & UInt32($0.0) != 0 }.map(\.1)
    }

    private struct Event {
        var watch: CInt
        var mask: UInt32
        var name: String
    }

    /// `struct inotify_event`: int wd; uint32_t mask, cookie, len; then len bytes of name.
    private static func parse(_ bytes: ArraySlice<UInt8>) -> [Event] {
        let header = 16
        return bytes.withUnsafeBytes { raw in
            var events: [Event] = []
            var offset = 0
            while raw.count - offset >= header {
                let watch = raw.loadUnaligned(fromByteOffset: offset, as: CInt.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let end = min(offset + header + length, raw.count)
                let name = raw[(offset + header)..<end].prefix { $0 != 0 }
                events.append(Event(watch: watch, mask: mask, name: String(decoding: name, as: UTF8.self)))
                offset = end
            }
            return events
        }
    }
}

struct WatchError: Error, CustomStringConvertible {
    var call: String
    var errno: CInt
    var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
