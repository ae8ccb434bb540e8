import WidgetHostProtocol

/// An entry in one line for the terminal: its content as JSON, or — for an entry that is
/// only a view (protocol version 2) — the texts its view shows, with live dates by style.
enum EntrySummary {
    static func text(_ entry: TimelineEntryPayload) -> String {
        guard entry.content == .null, let view = entry.view else { return Text.json(entry.content) }
        if view.rejected != nil { return "view refused (\(view.rejected ?? "")): the placeholder shows" }
        let texts = texts(in: view.root)
        return TerminalText.safe("view: " + (texts.isEmpty ? "(no text)" : texts.joined(separator: " · ")))
    }

    private static func texts(in node: ViewNode) -> [String] {
        var result: [String] = []
        if case .text(let runs) = node.content {
            result.append(
                runs.map { run in
                    switch run.content {
                    case .string(let text): text
                    case .symbol: ""
                    case .date(_, let style): "<\(style.rawValue)>"
                    case .timer: "<timer>"
                    }
                }.joined().trimmingCharacters(in: .whitespaces))
        }
        return result + node.childNodes.flatMap(texts(in:))
    }
}

import Foundation
