import Foundation
import WidgetHostProtocol

extension SimulationResult {
    /// The figures and the whole event log. Keys sorted, dates RFC 3339, no wall-clock
    /// figures: the same scenario and seed give the same bytes.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.format(date))
        }
        var data = try encoder.encode(
            Document(scenario: scenario, widgets: widgets, activities: activities.isEmpty ? nil : activities, events: events))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private struct Document: Encodable {
        var scenario: ScenarioSummary
        var widgets: [WidgetReport]
        /// Left out when the scenario has no `[[activity]]`, so older reports stay the same bytes.
        var activities: [ActivityReport]?
        var events: [SimulationEvent]
    }
}
