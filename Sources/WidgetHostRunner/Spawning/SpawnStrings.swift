import CSpawn
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A command's C strings for `widgethost_spawn`: `argv`, `envp` (sorted `NAME=value`), the
/// sandbox's paths. The same for every spawn of a launch, so `ProcessSpawner` makes them once
/// per command (`PreparedCommands`): before each cold start they were ~40 k of the spawn's
/// ~71 k instructions between the request and the `clone` (36 `strdup`s, an interpolation per
/// variable, the sort; callgrind, issue 16). Immutable once made; freed with the last spawn
/// that uses them.
final class SpawnStrings: @unchecked Sendable {
    let command: SpawnCommand
    let argv: [UnsafeMutablePointer<CChar>?]
    let envp: [UnsafeMutablePointer<CChar>?]
    let reads: [UnsafePointer<CChar>?]
    let writes: [UnsafePointer<CChar>?]

    init(_ command: SpawnCommand) {
        self.command = command
        argv = ([command.executable] + command.arguments).map { strdup($0) } + [nil]
        envp = command.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        reads = (command.sandbox?.read ?? []).map { UnsafePointer(strdup($0)) }
        writes = (command.sandbox?.write ?? []).map { UnsafePointer(strdup($0)) }
    }

    /// `body` with the command's sandbox as `widgethost_spawn` takes it (nil: unconfined).
    func withSandbox<Result>(_ body: (UnsafePointer<widgethost_sandbox>?) -> Result) -> Result {
        guard let rules = command.sandbox else { return body(nil) }
        return reads.withUnsafeBufferPointer { reads in
            writes.withUnsafeBufferPointer { writes in
                var sandbox = widgethost_sandbox(
                    reads: reads.baseAddress, read_count: CInt(reads.count), writes: writes.baseAddress,
                    write_count: CInt(writes.count), network: rules.network ? 1 : 0, abi_cap: CInt(rules.landlockABI),
                    seccomp: rules.seccomp ? 1 : 0, open_files: rules.openFiles ?? -1, processes: rules.processes ?? -1,
                    required: rules.required ? 1 : 0)
                return body(&sandbox)
            }
        }
    }

    deinit {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        reads.forEach { free(UnsafeMutablePointer(mutating: $0)) }
        writes.forEach { free(UnsafeMutablePointer(mutating: $0)) }
    }
}

/// The `SpawnStrings` of the commands a spawner started, found again by the whole command
/// (executable, arguments, environment, sandbox): a command that differs in anything gets
/// strings of its own. A launch's command changes only with a rescan or its confinement
/// (`PreparedLaunches`); a bound keeps those that came and went from piling up.
final class PreparedCommands: Sendable {
    private let entries = Mutex<[SpawnStrings]>([])
    static let limit = 64

    func strings(for command: SpawnCommand) -> SpawnStrings {
        // Compared whole: the executable first (most commands differ there), then the rest,
        // whose arrays and dictionaries shared with the launch compare by identity.
        if let known = entries.withLock({ $0.first { $0.command == command } }) { return known }
        let made = SpawnStrings(command)
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll() }
            entries.append(made)
        }
        return made
    }

    /// How many commands' strings are kept (tests).
    var count: Int { entries.withLock { $0.count } }
}
