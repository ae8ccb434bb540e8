import Foundation
import WidgetHostProtocol

/// The executable actually runs here and answers `initialize` with at least one widget —
/// what the widget gallery asks first. A binary built for another platform, a script
/// whose interpreter is missing, or a bundle with no widgets all vanish from the gallery.
enum InitializeCheck {
    static let title = "the executable starts and lists its widgets (initialize)"

    static func run(_ runner: Runner, executable: String) -> (Finding, [WidgetDescriptor]) {
        let deadline = runner.limits.timelineTimeout
        let run = runner.call(.initialize, params: nil, deadline: deadline)
        let outcome = run.outcome
        switch outcome.result {
        case .failure(let failure):
            let (detail, fix) = Explain.failure(
                failure, method: .initialize, deadline: deadline, limits: runner.limits, outcome: outcome,
                executable: executable)
            return (Finding(.initialize, .fail, title: title, detail: detail, fix: fix, seconds: outcome.seconds), [])
        case .success(let value):
            let result: InitializeResult
            do {
                result = try value.decode(as: InitializeResult.self)
            } catch {
                return (
                    Finding(
                        .initialize, .fail, title: title,
                        detail: "its initialize reply does not match the protocol: \(Decoding.describe(error))",
                        fix: "Reply {\"widgets\":[{\"kind\",\"displayName\",\"description\",\"supportedFamilies\"}]} "
                            + "(docs/protocol.md)", seconds: outcome.seconds),
                    []
                )
            }
            let empty = result.widgets.filter { $0.supportedFamilies.isEmpty }.map(\.kind)
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

/// A decoding error in one line: which field and what was wrong.
enum Decoding {
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the reply" : String(keys.drop { $0 == "." })
        }
        switch decoding {
        case .keyNotFound(let key, let context): return "\(path(context)) is missing \"\(key.stringValue)\""
        case .typeMismatch(let type, let context): return "\(path(context)) should be \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)) is null, expected \(type)"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
