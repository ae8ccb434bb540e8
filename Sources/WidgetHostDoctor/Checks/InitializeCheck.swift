import Foundation
import WidgetHostProtocol
import WidgetHostRunner

/// The executable actually runs here and answers `initialize` with at least one widget —
/// what the widget gallery asks first. A binary built for another platform, a script
/// whose interpreter is missing, or a bundle with no widgets all vanish from the gallery.
enum InitializeCheck {
    static let title = "the executable starts and lists its widgets (initialize)"

    static func run(_ caller: Caller, executable: String) -> (Finding, [WidgetDescriptor]) {
        let outcome = caller.initialize()
        switch outcome.result {
        case .failure(let failure):
            let (detail, fix) = Explain.failure(
                failure, method: .initialize, limits: caller.limits, stderrTail: outcome.stderrTail, executable: executable)
            return (Finding(.initialize, .fail, title: title, detail: detail, fix: fix, seconds: outcome.seconds), [])
        case .success(let result):
            let empty = result.widgets.filter { $0.supportedFamilies.isEmpty }.map(\.kind)
            let controls = result.controls ?? []
            let activities = result.activities ?? []
            if result.widgets.isEmpty, controls.isEmpty, !activities.isEmpty {
                // A bundle of Live Activities only: nothing for the gallery, and nothing wrong.
                return (
                    Finding(
                        .initialize, .pass, title: title,
                        detail: "in \(Figures.duration(outcome.seconds)): no widgets; Live Activities for "
                            + activities.joined(separator: ", "),
                        seconds: outcome.seconds),
                    []
                )
            }
            // A bundle of Control widgets only is a widget extension too (iOS 18).
            let nothing = result.widgets.isEmpty && controls.isEmpty
            if nothing || !empty.isEmpty {
                let what = nothing
                    ? "initialize listed no widgets and no controls" : "\(empty.joined(separator: ", ")) support no family"
                return (
                    Finding(
                        .initialize, .fail, title: title,
                        detail: "\(what); nothing of it appears in the widget gallery",
                        fix: nothing
                            ? "Add at least one Widget or ControlWidget to the WidgetBundle's body"
                            : "List the families in .supportedFamilies([…]), or drop the modifier for the default ones",
                        seconds: outcome.seconds),
                    result.widgets
                )
            }
            let kinds =
                result.widgets.map { "\($0.kind) (\($0.supportedFamilies.map(\.rawValue).joined(separator: ", ")))" }
                + controls.map { "\($0.kind) (a \($0.style.rawValue) control)" }
            return (
                Finding(
                    .initialize, .pass, title: title,
                    detail: "in \(Figures.duration(outcome.seconds)): \(kinds.joined(separator: "; "))",
                    seconds: outcome.seconds),
                result.widgets
            )
        }
    }
}
