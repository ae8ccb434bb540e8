import Foundation

/// libfaketime (Debian `faketime`), preloaded so that an extension's own `Date()` starts
/// at a chosen instant and runs on in real time — the same tool the host's virtual clock
/// uses. The doctor uses it for `--now`, so that a policy aimed at a time of day
/// ("reload at midnight") is judged at a stated time, not whenever CI happens to run.
enum FakeTime {
    static let searchPaths = [
        "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/faketime/libfaketime.so.1",
        "/usr/local/lib/faketime/libfaketime.so.1",
    ]

    static var library: String? {
        searchPaths.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The variables that start the extension's clock at `instant`, or nil without libfaketime.
    static func environment(startingAt instant: Date) -> [String: String]? {
        guard let library else { return nil }
        return [
            "LD_PRELOAD": library,
            "FAKETIME": "@\(Int(instant.timeIntervalSince1970.rounded(.down)))",
            "FAKETIME_FMT": "%s",
            // Not FAKETIME_DONT_FAKE_MONOTONIC: with it, clock_nanosleep on CLOCK_MONOTONIC
            // fails with EINVAL (Python's time.sleep raises). "@" runs at real speed anyway.
        ]
    }
}
