import Foundation

/// libfaketime (Debian `faketime`), preloaded so that an extension's own `Date()` sees the
/// host's virtual time: the harness and `doctor --now` start each process at a chosen
/// instant, and `widgethostd --virtual-clock` has every process follow a file the clock
/// rewrites at each jump. The one builder of these variables.
public enum FakeTime {
    /// How the extension's clock is set.
    public enum Clock: Sendable, Hashable {
        /// Starts at this instant and runs on in real time.
        case startingAt(Date)
        /// Follows the offset in this file (`+SECONDS`, libfaketime's relative form), re-read
        /// on every call, so a running process sees the clock jump.
        case following(timestampFile: String)
    }

    /// Debian's multiarch directory for the architecture this binary was built for.
    public static var multiarchTriple: String {
        #if arch(x86_64)
        "x86_64-linux-gnu"
        #elseif arch(arm64)
        "aarch64-linux-gnu"
        #elseif arch(arm)
        "arm-linux-gnueabihf"
        #elseif arch(riscv64)
        "riscv64-linux-gnu"
        #else
        "unknown-linux-gnu"
        #endif
    }

    /// Where the library is looked for: Debian's path for this architecture first, then
    /// distributions without multiarch and local installs.
    public static var searchPaths: [String] {
        [
            "/usr/lib/\(multiarchTriple)/faketime/libfaketime.so.1",
            "/usr/lib/faketime/libfaketime.so.1",
            "/usr/lib64/faketime/libfaketime.so.1",
            "/usr/local/lib/faketime/libfaketime.so.1",
        ]
    }

    /// The installed library, or nil.
    public static var library: String? {
        searchPaths.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The variables that give an extension `clock`, or nil without libfaketime.
    public static func environment(_ clock: Clock, library: String? = library) -> [String: String]? {
        guard let library else { return nil }
        switch clock {
        case .startingAt(let instant):
            return [
                "LD_PRELOAD": library,
                // Seconds since the epoch, so that no time zone or DST fold can shift it.
                "FAKETIME": "@\(Int(instant.timeIntervalSince1970.rounded(.down)))",
                "FAKETIME_FMT": "%s",
                // CLOCK_MONOTONIC is shifted too but ticks at the real rate, so sleeps and
                // timers stay real. Not FAKETIME_DONT_FAKE_MONOTONIC: with it,
                // clock_nanosleep on CLOCK_MONOTONIC fails with EINVAL (Python's time.sleep).
            ]
        case .following(let timestampFile):
            return [
                "LD_PRELOAD": library,
                "FAKETIME_TIMESTAMP_FILE": timestampFile,
                "FAKETIME_NO_CACHE": "1",
            ]
        }
    }

    /// Why a virtual clock cannot reach extensions here, with the fix.
    public static var missing: String {
        "libfaketime is not installed (looked for \(searchPaths[0])); install it (Debian: apt-get install faketime, "
            + "or make deps)"
    }
}
