import Foundation
import WidgetHostProtocol
import WidgetHostRunner

/// The highest footprint (`RssAnon + VmSwap` of the process and its children, the host's
/// measure) over every request made for the widget, against 30 MiB with margin.
enum FootprintCheck {
    static func title(_ limits: DoctorLimits) -> String {
        "peak footprint stays under \(Figures.mebibytes(limits.memory)), with margin"
    }

    static func finding(_ runs: [(ExtensionMethod, Caller.Run)], widget: WidgetUnderTest) -> Finding {
        let limits = widget.limits
        let title = title(limits)
        var peak: (bytes: Int, method: ExtensionMethod)?
        for (method, run) in runs {
            var bytes = run.outcome.peakFootprint
            if case .failure(.failed(.memoryLimitExceeded(let measured))) = run.outcome.result { bytes = measured }
            if let bytes, bytes > (peak?.bytes ?? -1) { peak = (bytes, method) }
        }
        func finding(_ verdict: Finding.Verdict, _ detail: String, fix: String? = nil) -> Finding {
            Finding(
                .footprint, verdict, title: title, detail: detail, fix: fix, kind: widget.kind, family: widget.family,
                footprintBytes: peak?.bytes)
        }
        guard let peak else {
            return finding(.skipped, "not measured: no process lived long enough to be sampled")
        }
        let margin = Int(Double(limits.memory) * limits.memoryMargin)
        let measured = "peak \(Figures.bytes(peak.bytes)) during \(peak.method.rawValue)"
        let fix = "Hold less in memory: decode only what the entries show, downscale images before keeping them, "
            + "and keep no caches in the extension"
        if peak.bytes > limits.memory {
            return finding(
                .fail,
                "\(measured), over the \(Figures.mebibytes(limits.memory)) limit; the host kills it "
                    + "(memoryLimitExceeded), as jetsam does on a device",
                fix: fix)
        }
        if peak.bytes > margin {
            return finding(
                .warn,
                "\(measured), within the \(Figures.mebibytes(limits.memory)) limit but above \(Figures.bytes(margin)); "
                    + "iOS counts more than RssAnon + VmSwap, so a device may kill it",
                fix: fix)
        }
        return finding(.pass, "\(measured) (limit \(Figures.mebibytes(limits.memory)))")
    }
}
