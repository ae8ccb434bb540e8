import Foundation
import Testing
import WidgetHostDoctor

extension Tag {
    /// Tests that start extension processes (Python fixtures, built examples).
    @Tag static var doctorProcess: Self
}

enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/DoctorBundles")

    static func fixture(_ name: String) -> URL {
        fixtures.appendingPathComponent("\(name).appex")
    }
}

extension Doctor {
    /// Examines a fixture bundle with the given options (the real limits unless changed).
    static func examine(_ name: String, _ change: (inout Doctor.Options) -> Void = { _ in }) throws -> DoctorReport {
        var options = Doctor.Options()
        change(&options)
        return try Doctor(options: options).examine(bundleAt: Paths.fixture(name))
    }
}

extension DoctorReport {
    /// The one finding for `check` (bundle checks, or the only kind × family of a fixture).
    func only(_ check: CheckID) throws -> Finding {
        let matches = findings(check)
        try #require(matches.count == 1, "expected one \(check.rawValue) finding, found \(matches.count):\n\(text)")
        return matches[0]
    }
}
