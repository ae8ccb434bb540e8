import Foundation
import WidgetHostBundles
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// What one extension may reach, as on a device: its bundle and what the system's runtime
/// needs, read-only; its entitled app-group containers and a private temporary directory,
/// read-write; TCP only with `com.apple.security.network.client`. Everything else is refused.
/// Turned into the spawn's rules by `sandbox(support:required:)`.
public struct SandboxProfile: Sendable, Hashable {
    /// Read and execute beneath each (a file: that file only).
    public var read: [String]
    /// Read and write beneath each.
    public var write: [String]
    public var network: Bool
    public var processes: Int
    public var openFiles: Int
    /// The extension's `TMPDIR` (also in `write`).
    public var temporaryDirectory: String

    /// The system's libraries, programs and runtime data; none of it holds anyone's data.
    public static let system = [
        "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin",
        "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/timezone",
        "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/locale.alias",
        // The process's own /proc/PID (granted by the spawned child itself, whose pid is the
        // extension's), and what runtimes read to size themselves.
        "/proc/self", "/proc/meminfo", "/proc/cpuinfo", "/proc/stat", "/sys/devices/system/cpu",
        "/dev/urandom", "/dev/random", "/dev/zero",
    ]
    /// What name resolution and TLS read, granted with the network entitlement only.
    public static let network = [
        "/etc/hosts", "/etc/host.conf", "/etc/resolv.conf", "/etc/gai.conf", "/etc/services", "/etc/protocols",
        "/etc/ssl", "/etc/ca-certificates",
    ]
    public static let writableDevices = ["/dev/null", "/dev/full"]

    /// The directory of the Swift runtime this host loaded (a debug build links it from the
    /// toolchain, and so do the extensions built beside it); nil for a static build.
    public static let swiftRuntime: String? = {
        guard let maps = KernelFile.read("/proc/self/maps") else { return nil }
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            if path.hasSuffix("/libswiftCore.so") { return (path as NSString).deletingLastPathComponent }
        }
        return nil
    }()

    /// Where private temporary directories are made: one per bundle, mode 0700.
    public static var temporaryRoot: String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (base as NSString).appendingPathComponent("widgethost-sandbox-\(getuid())")
    }

    /// The profile of `launch` under `limits`. Makes the private temporary directory.
    public init(_ launch: ExtensionLaunch, limits: ExtensionLimits, temporaryRoot: String = SandboxProfile.temporaryRoot)
        throws(SpawnError)
    {
        self.init(describing: launch, limits: limits, temporaryRoot: temporaryRoot)
        let temporary = temporaryDirectory
        do {
            try FileManager.default.createDirectory(
                atPath: temporary, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: temporaryRoot)
        } catch {
            throw SpawnError(
                executable: launch.executable,
                reason: "cannot make the extension's temporary directory \(temporary) (\(error.localizedDescription)); make \(temporaryRoot) writable")
        }
    }

    /// The profile of `launch` under `limits`, making nothing: what it grants (the doctor
    /// tells a refused path from a granted one with it).
    public init(describing launch: ExtensionLaunch, limits: ExtensionLimits, temporaryRoot: String = SandboxProfile.temporaryRoot) {
        var read = [launch.directory]
        // The executable the bundle names may be a link out of the bundle (a fixture's shared
        // script); the file itself is what runs.
        read.append(URL(fileURLWithPath: launch.executable).resolvingSymlinksInPath().path)
        read += Self.system
        if let runtime = Self.swiftRuntime { read.append(runtime) }
        if launch.networkClient { read += Self.network }
        // libfaketime's clock file is rewritten by rename (a new inode each time): its
        // directory is granted, which holds nothing else (state/virtual-clock/).
        if let clock = launch.environment["FAKETIME_TIMESTAMP_FILE"] {
            read.append((clock as NSString).deletingLastPathComponent)
        }
        var write = launch.appGroupContainers.map(\.container)
        // libfaketime (the harness, `doctor --now`, `--virtual-clock`) keeps its clock in a POSIX
        // semaphore and shared memory, and cannot start without them.
        if launch.environment["LD_PRELOAD"]?.contains("faketime") == true { write.append("/dev/shm") }
        let temporary = (temporaryRoot as NSString).appendingPathComponent(launch.bundleID)
        self.read = read
        self.write = write + [temporary] + Self.writableDevices
        self.network = launch.networkClient
        self.processes = limits.processes
        self.openFiles = limits.openFiles
        self.temporaryDirectory = temporary
    }

    /// The rules the spawn applies on a kernel with `support` (a fake older one in tests);
    /// `required` makes every rule that cannot be applied refuse the spawn.
    /// Where RLIMIT_NPROC cannot bind (uid 0) but the extension's cgroup has `pids.max`, the
    /// cgroup is the process limit and the spawn sets none.
    public func sandbox(support: SandboxSupport, required: Bool) -> SpawnSandbox {
        let cgroupLimitsProcesses = support.processLimitUnavailable != nil && support.pidsMax
        return SpawnSandbox(
            read: read, write: write, network: network, landlockABI: support.landlockABI, seccomp: support.seccomp,
            openFiles: openFiles, processes: cgroupLimitsProcesses ? nil : processes, required: required)
    }

    /// Whether `path` lies beneath one of `grants` (a grant that is a file: that file).
    public static func covers(_ grants: [String], _ path: String) -> Bool {
        grants.contains { grant in
            let directory = grant.hasSuffix("/") ? grant : grant + "/"
            return path == grant || path.hasPrefix(directory)
        }
    }

    /// `PATH` with only the directories the extension may read (a developer's `~/.pyenv/shims`
    /// would resolve `#!/usr/bin/env python3` to an interpreter the sandbox then refuses).
    public func path(from path: String?) -> String {
        let kept = (path ?? "").split(separator: ":").map(String.init).filter { entry in
            read.contains { entry == $0 || entry.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
        return kept.isEmpty ? ExtensionLaunch.defaultPath : kept.joined(separator: ":")
    }
}
