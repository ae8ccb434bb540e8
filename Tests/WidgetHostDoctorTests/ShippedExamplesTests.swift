import Foundation
import Testing
import WidgetHostDoctor
import WidgetHostRunner

/// Every example bundle assembled under .build/examples (`make test` runs
/// scripts/assemble-plugins.sh first) must pass the doctor: what we ship is what we preach.
@Suite("widgethost doctor passes the shipped examples", .tags(.doctorProcess))
struct ShippedExamplesTests {
    static let plugins = Paths.packageRoot.appendingPathComponent(".build/examples")

    static var assembled: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: plugins.path)) ?? []
        return names.filter { $0.hasSuffix(".appex") && !$0.hasPrefix(".") }.sorted()
    }

    @Test("Every assembled example passes, with no failed line")
    func examplesPass() throws {
        let bundles = Self.assembled
        guard !bundles.isEmpty else {
            // Not a failure: a bare `swift test` has not assembled them. `make test` does.
            withKnownIssue("no example bundles under .build/examples; run scripts/assemble-plugins.sh (make test does)") {
                Issue.record("nothing to check")
            }
            return
        }
        for name in bundles {
            // A fixed instant, so a policy aimed at a time of day is judged the same in every run.
            var options = Doctor.Options()
            if FakeTime.library != nil {
                options.now = Date(timeIntervalSince1970: 1_771_142_400)  // 2026-02-15T08:00:00Z
            }
            let report = try Doctor(options: options).examine(bundleAt: Self.plugins.appendingPathComponent(name))
            let failed = report.findings.filter { $0.verdict == .fail }
            #expect(
                failed.isEmpty,
                "\(name) fails doctor:\n\(failed.map { "\($0.kind ?? "bundle") \($0.family?.rawValue ?? ""): \($0.title): \($0.detail)" }.joined(separator: "\n"))")
            #expect(report.summary.skipped == 0, "\(name):\n\(report.text)")
            // Every kind × family was really run: nine lines each (PizzaDelivery has Live Activities and no kinds).
            let activitiesOnly = report.findings.contains { $0.detail.contains("no widgets; Live Activities for") }
            #expect(activitiesOnly || report.findings.count > 6, "\(name):\n\(report.text)")
        }
    }
}
