import Foundation
import WidgetHostProtocol

/// What the host accepts from `timeline/get`: at least one entry, at most `max_entries`,
/// at most `max_timeline_bytes`; entries out of date order are sorted (and noted).
public enum TimelineValidation {
    public enum Verdict: Sendable, Hashable {
        case accepted(entries: [TimelineEntryPayload], notes: [Note])
        case rejected(Note)
    }

    public struct Note: Sendable, Hashable {
        public var code: String
        public var severity: DiagnosticSeverity
        public var message: String

        public init(code: String, severity: DiagnosticSeverity, message: String) {
            self.code = code
            self.severity = severity
            self.message = message
        }
    }

    public static func validate(_ timeline: TimelinePayload, byteCount: Int, limits: ExtensionLimits) -> Verdict {
        let count = timeline.entries.count
        if count == 0 {
            return .rejected(
                Note(
                    code: "emptyTimeline", severity: .error,
                    message: "the timeline has no entries and was rejected; the previous timeline stays. "
                        + "Return at least one entry (e.g. the current state) from getTimeline"))
        }
        if count > limits.maxEntries {
            return .rejected(
                Note(
                    code: "tooManyEntries", severity: .error,
                    message: "the timeline has \(count) entries, more than max_entries = \(limits.maxEntries), "
                        + "and was rejected (devices stop updating past ~400); return fewer entries and reload later"))
        }
        if byteCount > limits.maxTimelineBytes {
            return .rejected(
                Note(
                    code: "timelineTooLarge", severity: .error,
                    message: "the timeline reply is \(byteCount) bytes, more than max_timeline_bytes = "
                        + "\(limits.maxTimelineBytes), and was rejected; put less data in each entry"))
        }

        var (entries, notes) = ViewValidation.validate(timeline.entries, limits: limits)
        if zip(entries, entries.dropFirst()).contains(where: { $0.date > $1.date }) {
            // Stable: entries with equal dates keep the extension's order.
            entries = entries.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
                .map(\.element)
            notes.append(
                Note(
                    code: "entriesOutOfOrder", severity: .warning,
                    message: "timeline entries were not in date order; the host sorted them. "
                        + "Build the entries array in chronological order"))
        }
        if count > limits.warnEntries {
            notes.append(
                Note(
                    code: "manyEntries", severity: .warning,
                    message: "the timeline has \(count) entries, more than warn_entries = \(limits.warnEntries); "
                        + "long timelines cost memory and are rejected past \(limits.maxEntries)"))
        }
        return .accepted(entries: entries, notes: notes)
    }
}
