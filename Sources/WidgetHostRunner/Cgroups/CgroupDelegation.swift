import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The cgroup v2 subtree systemd delegated to the daemon (`Delegate=`), made ready for one
/// child cgroup per extension process.
///
/// cgroup v2 allows processes only in leaves once a controller is enabled for children
/// ("no internal processes"), so the daemon itself sits in a leaf named `supervisor`:
/// `DelegateSubgroup=supervisor` (systemd 254+) starts it there; otherwise it moves itself
/// there before enabling the memory controller. Nothing here runs with `limits.cgroup = off`.
public struct CgroupDelegation: Sendable {
    /// The leaf the daemon's own process lives in, beside the extension cgroups.
    public static let supervisorLeaf = "supervisor"
    /// Extension cgroups are named `ext-BUNDLE-PID` (dots become underscores).
    public static let extensionPrefix = "ext-"

    /// Where the kernel's view comes from; tests point these at a fake root directory.
    public struct Sources: Sendable {
        /// The cgroup v2 mount point; nil: the `cgroup2` line of `mountInfo`.
        public var mountPoint: String?
        public var selfCgroup = "/proc/self/cgroup"
        public var mountInfo = "/proc/self/mountinfo"

        public init(
            mountPoint: String? = nil, selfCgroup: String = "/proc/self/cgroup", mountInfo: String = "/proc/self/mountinfo"
        ) {
            self.mountPoint = mountPoint
            self.selfCgroup = selfCgroup
            self.mountInfo = mountInfo
        }
    }

    /// The delegated cgroup's directory; extension cgroups are made in it.
    public let directory: String
    /// cgroupfs removes a cgroup's interface files with its directory (`rmdir`); a plain
    /// directory standing in for one in tests needs them removed first.
    public let removeDirectory: @Sendable (String) -> Bool
    /// The pids controller is enabled for extension cgroups too, so each gets `pids.max`.
    public let pids: Bool

    public init(directory: String, removeDirectory: @escaping @Sendable (String) -> Bool, pids: Bool = false) {
        self.directory = directory
        self.removeDirectory = removeDirectory
        self.pids = pids
    }

    /// Finds the daemon's delegated cgroup and enables the memory controller for its
    /// children, or says in one sentence why that is not possible here.
    public static func prepare(
        _ sources: Sources = Sources(), pid: pid_t = getpid(),
        removeDirectory: @escaping @Sendable (String) -> Bool = { rmdir($0) == 0 }
    ) throws(CgroupUnavailable) -> CgroupDelegation {
        guard let mount = sources.mountPoint ?? cgroup2MountPoint(sources.mountInfo) else {
            throw CgroupUnavailable("no cgroup v2 hierarchy is mounted (no cgroup2 line in \(sources.mountInfo))")
        }
        let selfCgroup = CgroupFiles.read(sources.selfCgroup) ?? ""
        // A controller belongs to one hierarchy only. On a hybrid host (cgroup v2 mounted
        // beside v1, systemd.unified_cgroup_hierarchy=0) memory is bound to v1, and no unit
        // setting can delegate it on v2: asking for Delegate=yes would send the operator to
        // a unit that already has it.
        if let v1 = v1MemoryLine(selfCgroup) {
            let layout = unifiedPath(selfCgroup) == nil
                ? "has no cgroup v2 line (\"0::/…\"); this host uses cgroup v1 for memory"
                : "binds the memory controller to cgroup v1 on a hybrid host"
            throw CgroupUnavailable(
                "\(sources.selfCgroup) \(layout) (\"\(v1)\"), so cgroup v2 cannot limit an extension's memory "
                    + "whatever the unit says; boot with systemd.unified_cgroup_hierarchy=1 (Debian 12's default) "
                    + "for a cgroup per extension")
        }
        guard let own = unifiedPath(selfCgroup) else {
            throw CgroupUnavailable(
                "\(sources.selfCgroup) has no cgroup v2 line (\"0::/…\"); this host uses cgroup v1 for memory")
        }
        let inLeaf = (own as NSString).lastPathComponent == supervisorLeaf
        let delegated = inLeaf ? (own as NSString).deletingLastPathComponent : own
        guard delegated != "/" else {
            throw CgroupUnavailable(
                "widgethostd runs in the root cgroup of \(mount), so nothing is delegated to it; "
                    + "run it as a systemd service with Delegate=yes")
        }
        let directory = mount + delegated
        guard let controllers = CgroupFiles.read("\(directory)/cgroup.controllers") else {
            throw CgroupUnavailable("\(directory) is not a cgroup v2 directory (no cgroup.controllers)")
        }
        guard controllers.split(whereSeparator: \.isWhitespace).contains("memory") else {
            let listed = controllers.trimmingCharacters(in: .whitespacesAndNewlines)
            throw CgroupUnavailable(
                "the memory controller is not delegated to \(directory) (cgroup.controllers: \"\(listed)\"); "
                    + "set Delegate=yes or Delegate=memory pids in the unit")
        }
        for path in [directory, "\(directory)/cgroup.subtree_control", "\(directory)/cgroup.procs"]
        where !CgroupFiles.isWritable(path) {
            throw CgroupUnavailable(
                "\(path) is not writable by uid \(getuid()), so the subtree is not delegated to widgethostd; "
                    + "set Delegate=yes and do not set ProtectControlGroups=yes")
        }

        if !inLeaf {
            let leaf = "\(directory)/\(supervisorLeaf)"
            if mkdir(leaf, 0o755) != 0, errno != EEXIST {
                throw CgroupUnavailable("cannot create \(leaf): \(String(cString: strerror(errno)))")
            }
            do {
                try CgroupFiles.write("\(pid)", to: "\(leaf)/cgroup.procs")
            } catch {
                throw CgroupUnavailable("cannot move widgethostd into \(leaf): \(error)")
            }
        }
        // pids too where it is delegated (Delegate=yes delegates it), for `pids.max`; memory is
        // what the cgroup is for, so a refused pids leaves memory alone enabled.
        let enabled = CgroupFiles.words("\(directory)/cgroup.subtree_control")
        let offersPids = controllers.split(whereSeparator: \.isWhitespace).contains("pids")
        var pids = offersPids && enabled.contains("pids")
        var memory = enabled.contains("memory")
        if offersPids, !pids {
            let both = (memory ? [] : ["+memory"]) + ["+pids"]
            pids = (try? CgroupFiles.write(both.joined(separator: " "), to: "\(directory)/cgroup.subtree_control")) != nil
            memory = memory || pids
        }
        if !memory {
            do {
                try CgroupFiles.write("+memory", to: "\(directory)/cgroup.subtree_control")
            } catch {
                throw CgroupUnavailable(
                    "cannot enable the memory controller for extension cgroups (\(error)); "
                        + "is another process still in \(directory)/cgroup.procs?")
            }
        }
        let delegation = CgroupDelegation(directory: directory, removeDirectory: removeDirectory, pids: pids)
        delegation.removeStaleGroups()
        return delegation
    }

    /// A cgroup of its own for one extension process, with `memory.max` and, where the pids
    /// controller is enabled and `processLimit` given, `pids.max` = that many tasks besides
    /// the extension's own; the process moved in.
    public func makeGroup(for bundleID: String, pid: pid_t, memoryLimit: Int, processLimit: Int? = nil)
        throws(CgroupFileError) -> ExtensionCgroup
    {
        let name = Self.extensionPrefix + bundleID.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" } + "-\(pid)"
        let group = ExtensionCgroup(directory: "\(directory)/\(name)", memoryLimit: memoryLimit)
        guard mkdir(group.directory, 0o755) == 0 || errno == EEXIST else {
            throw CgroupFileError(path: group.directory, errno: errno)
        }
        do {
            try CgroupFiles.write("\(memoryLimit)", to: "\(group.directory)/memory.max")
            // A fork bomb stops here whatever the extension's uid (RLIMIT_NPROC does not bind root).
            if pids, let processLimit { try CgroupFiles.write("\(processLimit + 1)", to: "\(group.directory)/pids.max") }
            // Best effort, where the kernel offers them: swap would let the footprint grow
            // past memory.max unseen by the kernel, and a memory kill should take the whole
            // extension (its children too), as the SIGKILL to its process group does.
            for (file, value) in [("memory.swap.max", "0"), ("memory.oom.group", "1")]
            where FileManager.default.fileExists(atPath: "\(group.directory)/\(file)") {
                try? CgroupFiles.write(value, to: "\(group.directory)/\(file)")
            }
            try CgroupFiles.write("\(pid)", to: "\(group.directory)/cgroup.procs")
        } catch {
            _ = removeDirectory(group.directory)
            throw error
        }
        return group
    }

    /// Extension cgroups left by a previous run of the daemon (empty ones only: `rmdir`
    /// refuses a cgroup with processes in it).
    private func removeStaleGroups() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names.sorted() where name.hasPrefix(Self.extensionPrefix) {
            _ = removeDirectory("\(directory)/\(name)")
        }
    }

    /// The mount point of the `cgroup2` file system, from `/proc/self/mountinfo`
    /// ("… MOUNTPOINT OPTIONS … - cgroup2 SOURCE OPTIONS").
    static func cgroup2MountPoint(_ mountInfo: String) -> String? {
        for line in (CgroupFiles.read(mountInfo) ?? "").split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2, halves[1].hasPrefix("cgroup2 ") else { continue }
            let fields = halves[0].split(separator: " ")
            if fields.count > 4 { return String(fields[4]) }
        }
        return nil
    }

    /// The cgroup v1 line that names the memory controller in `/proc/self/cgroup`
    /// ("4:memory:/…"), if memory is bound to a v1 hierarchy.
    static func v1MemoryLine(_ text: String) -> String? {
        for line in text.split(separator: "\n") where !line.hasPrefix("0::") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, fields[1].split(separator: ",").contains("memory") { return String(line) }
        }
        return nil
    }

    /// The path after "0::" in `/proc/self/cgroup` (the cgroup v2 line).
    static func unifiedPath(_ text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let path = String(line.dropFirst(3))
            return path.isEmpty ? nil : path
        }
        return nil
    }
}

/// Why extensions get no cgroup of their own on this host; sampling is the enforcement then.
public struct CgroupUnavailable: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One extension process's cgroup.
public struct ExtensionCgroup: Sendable, Hashable {
    public let directory: String
    public let memoryLimit: Int

    /// `oom_kill` in `memory.events`: processes the kernel killed here for `memory.max`.
    public var oomKills: Int {
        CgroupFiles.read("\(directory)/memory.events").flatMap { CgroupFiles.value(of: "oom_kill", in: $0) } ?? 0
    }

    /// The figure to report for a kernel memory kill: `memory.peak` (Linux 5.19+), or
    /// the limit the kernel enforced.
    public var peakBytes: Int {
        let peak = CgroupFiles.read("\(directory)/memory.peak").flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return max(peak ?? 0, memoryLimit)
    }

    /// Kills whatever is still in the cgroup (`cgroup.kill`, Linux 5.14+), so it can be removed.
    public func killRemaining() {
        let file = "\(directory)/cgroup.kill"
        if FileManager.default.fileExists(atPath: file) { try? CgroupFiles.write("1", to: file) }
    }
}
