import Foundation
import WidgetHostProtocol

/// One kind in one family, and the requests the host would make for it: the placeholder
/// (watched containers), a gallery snapshot, a timeline with the app's data, and a timeline
/// on first launch. Each request runs in a fresh process.
struct WidgetUnderTest {
    var kind: String
    var family: WidgetFamily
    var executable: String
    var limits: DoctorLimits

    func findings(runner: Runner, now: Date, hasSampleData: Bool) -> [Finding] {
        let placeholder = runner.call(
            .placeholder, params: try? JSONValue(encoding: PlaceholderParams(kind: kind, family: family)),
            deadline: limits.placeholderTimeout, watching: true)
        let snapshot = runner.call(
            .snapshot, params: try? JSONValue(encoding: SnapshotParams(kind: kind, family: family, isPreview: true)),
            deadline: limits.timelineTimeout)
        let timelineParams = try? JSONValue(
            encoding: TimelineParams(kind: kind, family: family, widgetId: "doctor", now: now))
        let timeline = runner.call(.timeline, params: timelineParams, deadline: limits.timelineTimeout)
        // Without sample data the containers were already empty: that run was a first launch.
        let firstLaunch = hasSampleData
            ? runner.call(.timeline, params: timelineParams, deadline: limits.timelineTimeout, containers: .empty)
            : timeline

        let decodeEntry: (JSONValue) throws -> Void = { _ = try $0.decode(as: TimelineEntryPayload.self) }
        var payload: TimelinePayload?
        var byteCount = 0
        let timelineTime = ResponseTimeCheck.finding(.timeline, run: timeline, deadline: limits.timelineTimeout, widget: self) {
            payload = try $0.decode(as: TimelinePayload.self)
            byteCount = (try? WireCoding.encode($0).count) ?? 0
        }
        var findings = [
            ResponseTimeCheck.finding(
                .placeholder, run: placeholder, deadline: limits.placeholderTimeout, widget: self, decode: decodeEntry),
            PlaceholderDataCheck.finding(placeholder, widget: self, seeded: hasSampleData),
            ResponseTimeCheck.finding(.snapshot, run: snapshot, deadline: limits.timelineTimeout, widget: self, decode: decodeEntry),
            timelineTime,
            FootprintCheck.finding(
                [(.placeholder, placeholder), (.snapshot, snapshot), (.timeline, timeline), (.timeline, firstLaunch)],
                widget: self),
        ]
        findings += TimelineContentChecks.findings(payload, byteCount: byteCount, now: now, widget: self)
        findings.append(FirstLaunchCheck.finding(firstLaunch, widget: self, sharedWithDataRun: !hasSampleData))
        return findings
    }
}
