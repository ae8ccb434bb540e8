import Foundation
import Synchronization
import WidgetHostBundles
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `limits.sandbox = auto | required`: every extension process is confined by its profile in
/// the spawned child, before its `execve` (`widgethost_spawn`, docs/security.md).
public struct SandboxConfinement: LaunchConfinement {
    public var mode: SandboxMode
    public var limits: ExtensionLimits
    public var support: SandboxSupport
    public var temporaryRoot: String

    public init(
        limits: ExtensionLimits, support: SandboxSupport = .probe(), temporaryRoot: String = SandboxProfile.temporaryRoot
    ) {
        self.mode = limits.sandbox
        self.limits = limits
        self.support = support
        self.temporaryRoot = temporaryRoot
    }

    /// Why no process can start confined here, naming the fix; nil when they can.
    public var refusal: String? {
        if mode == .required, let first = support.missing.first {
            return "limits.sandbox = \"required\" and \(first.rule) cannot be applied: \(first.reason); set limits.sandbox = \"auto\" to run with what this kernel offers"
        }
        return nil
    }

    /// What `confine` works out for a launch, kept for the next spawn of the same launch.
    private let prepared = PreparedLaunches()

    public func confine(_ command: inout SpawnCommand, for launch: ExtensionLaunch) throws(SpawnError) {
        if let refusal { throw SpawnError(executable: launch.executable, reason: refusal) }
        let launchPath = command.environment["PATH"]
        let base = command.environment
        let setup = try prepared.setup(for: launch, path: launchPath) { () throws(SpawnError) in
            let profile = try SandboxProfile(launch, limits: limits, temporaryRoot: temporaryRoot)
            let path = profile.path(from: launchPath)
            var environment = base
            environment["PATH"] = path
            environment["TMPDIR"] = profile.temporaryDirectory
            return PreparedLaunch(
                sandbox: profile.sandbox(support: support, required: mode == .required),
                path: path, temporaryDirectory: profile.temporaryDirectory, base: base, environment: environment)
        }
        if command.environment == setup.base {
            // The environment the first spawn confined, itself: the spawn's C strings kept for
            // it (`PreparedCommands`) are then found by identity, not key by key.
            command.environment = setup.environment
        } else {
            command.environment["PATH"] = setup.path
            command.environment["TMPDIR"] = setup.temporaryDirectory
        }
        command.sandbox = setup.sandbox
    }
}

extension ProcessSpawner {
    /// The spawner `limits.sandbox` asks for: the sandbox, or none with `off`.
    public static func sandboxed(_ limits: ExtensionLimits, support: SandboxSupport = .probe()) -> ProcessSpawner {
        switch limits.sandbox {
        case .off: ProcessSpawner()
        case .auto, .required: ProcessSpawner(confinement: SandboxConfinement(limits: limits, support: support))
        }
    }
}

/// The spawn's rules, PATH and TMPDIR for one launch: the same for every spawn of a bundle.
struct PreparedLaunch: Sendable {
    var sandbox: SpawnSandbox
    var path: String
    var temporaryDirectory: String
    /// The command's environment it was made for, and that environment with PATH and TMPDIR set.
    var base: [String: String]
    var environment: [String: String]
}

/// `SandboxConfinement`'s work per launch, done once: the profile (the executable's links
/// resolved, six `lstat`s), PATH filtered against the ~30 read grants, the rules. Before
/// every cold start that was 0.32 M instructions, seven `stat`s and a `chmod` between the
/// request and `posix_spawn` (issue 16, callgrind and `strace` of a cold reload). The
/// temporary directory is checked with one `access` per spawn and made again if it went.
final class PreparedLaunches: Sendable {
    private struct Key: Hashable {
        var launch: ExtensionLaunch
        var path: String?

        /// Hashed by what tells launches apart, compared whole: hashing the whole launch (its
        /// environment's every key and value) was ~4 k instructions before each cold start's
        /// clone, and the comparison of a launch with its own stored copy is by identity.
        func hash(into hasher: inout Hasher) {
            hasher.combine(launch.bundleID)
            hasher.combine(launch.executable)
            hasher.combine(path)
        }
    }

    private let entries = Mutex<[Key: PreparedLaunch]>([:])
    /// Launches change only with a rescan; a bound keeps bundles that came and went from piling up.
    static let limit = 64

    func setup(for launch: ExtensionLaunch, path: String?, make: () throws(SpawnError) -> PreparedLaunch)
        throws(SpawnError) -> PreparedLaunch
    {
        let key = Key(launch: launch, path: path)
        if let known = entries.withLock({ $0[key] }), access(known.temporaryDirectory, F_OK) == 0 { return known }
        let made = try make()
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll() }
            entries[key] = made
        }
        return made
    }
}
