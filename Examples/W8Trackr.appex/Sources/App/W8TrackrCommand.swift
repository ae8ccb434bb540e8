import ArgumentParser
import Foundation
import W8TrackrShared
import WidgetKit

/// Plays the W8Trackr app: records weigh-ins and preferences in the App Group, then asks
/// the host to reload the widget, as the app does after every change.
@main
struct W8TrackrCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "w8trackr",
        abstract: "Play the W8Trackr app: log weigh-ins, set the goal and unit, reload WeightWidget and LogWeightControl.",
        discussion: """
            Data goes to the App Group group.com.w8trackr, found through WIDGETHOST_APP_GROUPS \
            (group.com.w8trackr=/path/to/container). After each change the widget is reloaded \
            with WidgetCenter (WIDGETHOST_SOCKET; WIDGETHOST_FOREGROUND=1 makes it exempt).

            Examples:
              w8trackr log 81.4 --unit kg
              w8trackr goal 75 --unit kg
              w8trackr import Examples/W8Trackr.appex/sample-weighins.json
            """,
        subcommands: [Log.self, Goal.self, Unit.self, Import.self])

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record a weigh-in.")
        @Argument(help: "The weight, e.g. 81.4.") var weight: Double
        @Option(help: "lb or kg (default: the preferred unit).") var unit: WeightUnit?
        @Option(help: "When, as RFC 3339 (default: now).") var date: String?

        func run() throws {
            guard weight.isFinite, weight > 0 else { throw ValidationError("the weight must be a positive number") }
            let container = try W8TrackrApp.container()
            let when = try date.map(W8TrackrApp.parseDate) ?? Date()
            let unit = try unit ?? container.preferences().preferredWeightUnit
            try container.updateWeighIns { $0.append(WeighIn(date: when, weight: weight, unit: unit)) }
            print("logged \(weight) \(unit.rawValue)")
            W8TrackrApp.reloadWidget()
        }
    }

    struct Goal: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the goal weight (and the preferred unit).")
        @Argument(help: "The goal weight.") var weight: Double
        @Option(help: "lb or kg; also becomes the preferred unit.") var unit: WeightUnit?

        func run() throws {
            guard weight.isFinite, weight > 0 else { throw ValidationError("the goal must be a positive number") }
            try W8TrackrApp.container().updatePreferences { preferences in
                if let unit { preferences.preferredWeightUnit = unit }
                preferences.goalWeight = weight
            }
            print("goal \(weight)\(unit.map { " \($0.rawValue)" } ?? "")")
            W8TrackrApp.reloadWidget()
        }
    }

    struct Unit: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the preferred unit; the goal is converted.")
        @Argument(help: "lb or kg.") var unit: WeightUnit

        func run() throws {
            try W8TrackrApp.container().updatePreferences { preferences in
                preferences.goalWeight = preferences.goalWeight.map {
                    unit.convert($0, from: preferences.preferredWeightUnit)
                }
                preferences.preferredWeightUnit = unit
            }
            print("unit \(unit.rawValue)")
            W8TrackrApp.reloadWidget()
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the data with a sample file: {unit, goal, weighIns: [{daysAgo | date, weight}]}.")
        @Argument(help: "The JSON file.") var file: String

        func run() throws {
            let sample = try W8TrackrSample.load(contentsOf: URL(fileURLWithPath: file), now: Date())
            let container = try W8TrackrApp.container()
            try container.updatePreferences { $0 = sample.preferences }
            try container.updateWeighIns { $0 = sample.weighIns }
            print("imported \(sample.weighIns.count) weigh-ins")
            W8TrackrApp.reloadWidget()
        }
    }
}

extension WeightUnit: ExpressibleByArgument {}

enum W8TrackrApp {
    static func container() throws -> W8TrackrContainer {
        guard let container = W8TrackrContainer.shared else {
            throw ValidationError(
                "no container for the App Group \(W8TrackrContainer.appGroup); set "
                    + "WIDGETHOST_APP_GROUPS=\(W8TrackrContainer.appGroup)=/path/to/AppGroups/\(W8TrackrContainer.appGroup)")
        }
        return container
    }

    static func parseDate(_ text: String) throws -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else {
            throw ValidationError("\"\(text)\" is not an RFC 3339 date such as 2026-02-15T08:00:00Z")
        }
        return date
    }

    /// `WidgetCenter.shared.reloadTimelines(ofKind:)` and `ControlCenter.shared.reloadControls(ofKind:)`,
    /// and what the host answered.
    static func reloadWidget() {
        let center = WidgetCenter.shared
        if center.appIdentifier == nil { center.appIdentifier = "com.w8trackr" }
        center.reloadTimelines(ofKind: WeightWidget.kind)
        if case .success(let result)? = center.lastReloadResult {
            for outcome in result.outcomes {
                print("\(outcome.kind) \(outcome.id): \(outcome.outcome.rawValue)\(outcome.reason.map { " (\($0.rawValue))" } ?? "")")
            }
        }
        let controls = ControlCenter.shared
        controls.reloadControls(ofKind: LogWeightControl.kind)
        if case .success(let result)? = controls.lastReloadResult, !result.asked.isEmpty {
            print("asked \(result.asked.joined(separator: ", "))")
        }
    }
}
