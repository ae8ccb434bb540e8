import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// One kind in one family, and the requests the host would make for it: the placeholder
/// (watched containers), a gallery snapshot, a timeline with the app's data, and a timeline
/// on first launch. Each request runs in a fresh process.
struct WidgetUnderTest {
    var kind: String
    var family: WidgetFamily
    var executable: String
    var limits: DoctorLimits
    /// The entitlements file as the fixes name it (`NAME.entitlements`).
    var entitlements: String

    func findings(caller: Caller, now: Date, hasSampleData: Bool) -> [Finding] {
        let placeholder = caller.call(.placeholder(PlaceholderParams(kind: kind, family: family)), watching: true)
        let snapshot = caller.call(.snapshot(SnapshotParams(kind: kind, family: family, isPreview: true)))
        let timelineCall = ExtensionRequest.Call.timeline(
            TimelineParams(kind: kind, family: family, widgetId: "doctor", now: now))
        let timeline = caller.call(timelineCall)
        // Without sample data the containers were already empty: that run was a first launch.
        let firstLaunch = hasSampleData ? caller.call(timelineCall, containers: .empty) : timeline

        var payload: TimelinePayload?
        var byteCount = 0
        if case .success(.timeline(let received, let size)) = timeline.outcome.result {
            payload = received
            byteCount = size
        }
        var findings = [
            ResponseTimeCheck.finding(.placeholder, run: placeholder, widget: self),
            PlaceholderDataCheck.finding(placeholder, widget: self, seeded: hasSampleData),
            ResponseTimeCheck.finding(.snapshot, run: snapshot, widget: self),
            ResponseTimeCheck.finding(.timeline, run: timeline, widget: self),
            FootprintCheck.finding(
                [(.placeholder, placeholder), (.snapshot, snapshot), (.timeline, timeline), (.timeline, firstLaunch)],
                widget: self),
        ]
        findings += TimelineContentChecks.findings(payload, byteCount: byteCount, now: now, widget: self)
        findings.append(FirstLaunchCheck.finding(firstLaunch, widget: self, sharedWithDataRun: !hasSampleData))
        findings.append(
            SandboxCheck.finding(
                [(.placeholder, placeholder), (.snapshot, snapshot), (.timeline, timeline), (.timeline, firstLaunch)],
                widget: self, entitlements: entitlements))
        return findings
    }
}
