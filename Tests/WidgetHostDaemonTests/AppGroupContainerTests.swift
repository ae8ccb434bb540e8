import Foundation
import Testing
import WidgetHostBundles
#if canImport(Glibc)
import Glibc
#endif

@Suite("App Group containers: 2770, in the parent's group")
struct AppGroupContainerTests {
    private func status(_ path: String) -> stat {
        var info = stat()
        _ = stat(path, &info)
        return info
    }

    @Test("A container is group-writable and setgid, whatever the umask, so members' files keep the group")
    func setgidContainer() throws {
        let root = try DaemonFixture.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let container = root + "/AppGroups/group.com.birthdayreminders"

        let mode = try AppGroupContainer.make(at: container)
        #expect(mode == 0o2770, "mode \(String(mode, radix: 8))")
        #expect(status(container).st_mode & 0o7777 == 0o2770)
    }

    @Test("Under a setgid parent (tmpfiles.d's AppGroups) the container takes the parent's group and bit from mkdir")
    func inheritsFromSetgidParent() throws {
        let root = try DaemonFixture.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let parent = root + "/AppGroups"
        #expect(mkdir(parent, 0o770) == 0)
        // A group the test process is not in stands for "widgethost" (root can chown to it).
        let group: gid_t = getgid() == 0 ? 4242 : getgid()
        #expect(chown(parent, getuid(), group) == 0)
        #expect(chmod(parent, 0o2770) == 0)

        let container = parent + "/group.a"
        try AppGroupContainer.make(at: container)
        let info = status(container)
        #expect(info.st_mode & 0o7777 == 0o2770)
        #expect(info.st_gid == group)
        // What an app's user writes there stays in the group (the point of the setgid bit).
        let file = container + "/data.json"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("{}".utf8)))
        #expect(status(file).st_gid == group)
    }

    @Test("An existing container is kept as it is, and its setgid bit added")
    func existingContainer() throws {
        let root = try DaemonFixture.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let container = root + "/group.old"
        #expect(mkdir(container, 0o750) == 0)
        #expect(chmod(container, 0o750) == 0)
        #expect(try AppGroupContainer.make(at: container) == 0o2750)
    }

    @Test("A container that cannot be made names the path and the reason")
    func unmakeable() throws {
        let root = try DaemonFixture.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(FileManager.default.createFile(atPath: root + "/AppGroups", contents: Data()))
        let error = #expect(throws: AppGroupContainerError.self) {
            try AppGroupContainer.make(at: root + "/AppGroups/group.a")
        }
        #expect(error?.description == "cannot create the app group container \(root)/AppGroups/group.a: Not a directory")
    }
}
