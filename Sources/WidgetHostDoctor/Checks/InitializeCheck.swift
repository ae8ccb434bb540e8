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
            let activities = result.activities ?? []
            if result.widgets.isEmpty, !activities.isEmpty {
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
            if result.widgets.isEmpty || !empty.isEmpty {
                let what = result.widgets.isEmpty
                    ? "initialize listed no widgets" : "\(empty.joined(separator: ", ")) support no family"
                return (
                    Finding(
                        .initialize, .fail, title: title,
                        detail: "\(what); nothing of it appears in the widget gallery",
                        fix: result.widgets.isEmpty
                            ? "Add at least one Widget to the WidgetBundle's body"
                            : "List the families in .supportedFamilies([…]), or drop the modifier for the default ones",
                        seconds: outcome.seconds),
                    result.widgets
                )
            }
            let kinds = result.widgets.map { "\($0.kind) (\($0.supportedFamilies.map(\.rawValue).joined(separator: ", ")))" }
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
