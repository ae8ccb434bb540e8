import AppIntents
import Foundation
import SwiftUI
import WidgetKit

/// W8Trackr's Control widget (iOS 18): "Log Weight" shows the latest weigh-in, and a tap logs
/// it again as today's (the quick "same as yesterday" entry), then reloads the widget and
/// itself. Its value provider reads the App Group; unreadable data is an error the host shows.
public struct LogWeightControl: ControlWidget {
    public static let kind = "LogWeightControl"

    let provider: LatestWeightProvider

    public init() { provider = LatestWeightProvider() }

    public init(provider: LatestWeightProvider) { self.provider = provider }

    public var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: Self.kind, provider: provider) { latest in
            ControlWidgetButton(action: LogWeightIntent()) {
                Label(latest.title, systemImage: latest.loggedToday ? "checkmark.circle" : "scalemass")
            }
        }
        .displayName("Log Weight")
        .description("Log today's weight: your latest weigh-in again.")
    }
}

/// What the control shows: the latest weigh-in in the preferred unit, and whether it is today's.
public struct LatestWeight: Codable, Sendable, Hashable {
    public var weight: Double?
    public var unit: WeightUnit
    public var loggedToday: Bool

    public init(weight: Double?, unit: WeightUnit, loggedToday: Bool) {
        self.weight = weight
        self.unit = unit
        self.loggedToday = loggedToday
    }

    /// `81.4 kg`, or `Log Weight` before the first weigh-in.
    public var title: String {
        weight.map { "\(String(format: "%.1f", $0)) \(unit.rawValue)" } ?? "Log Weight"
    }
}

/// Reads the latest weigh-in from the App Group, in the preferred unit.
public struct LatestWeightProvider: ControlValueProvider {
    let container: @Sendable () -> W8TrackrContainer?
    let now: @Sendable () -> Date

    /// `container` and `now` are seams for tests; the control uses the App Group and the clock.
    public init(
        container: @escaping @Sendable () -> W8TrackrContainer? = { W8TrackrContainer.shared },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.container = container
        self.now = now
    }

    /// Shown while previewing: no data read.
    public var previewValue: LatestWeight { LatestWeight(weight: nil, unit: .lb, loggedToday: false) }

    public func currentValue() async throws -> LatestWeight {
        guard let container = container() else { throw LogWeightError.noContainer }
        let unit = try container.preferences().preferredWeightUnit
        let now = now()
        guard let last = try container.weighIns().last(where: { $0.date <= now }) else {
            return LatestWeight(weight: nil, unit: unit, loggedToday: false)
        }
        return LatestWeight(
            weight: WeightWidgetProvider.rounded(last.weightValue(in: unit)), unit: unit,
            loggedToday: Calendar.current.isDate(last.date, inSameDayAs: now))
    }
}

/// The control's action: logs the latest weigh-in again, dated now.
public struct LogWeightIntent: AppIntent {
    public static let title: LocalizedStringResource = "Log Weight"
    public static let description: IntentDescription? = IntentDescription("Log today's weight: your latest weigh-in again.")

    public init() {}

    public func perform() async throws -> some IntentResult {
        guard let container = W8TrackrContainer.shared else { throw LogWeightError.noContainer }
        _ = try Self.logLatest(in: container, at: Date())
        // Inside perform() these are the intent's reloads, which the host honours at once.
        WidgetCenter.shared.reloadTimelines(ofKind: WeightWidget.kind)
        ControlCenter.shared.reloadControls(ofKind: LogWeightControl.kind)
        return .result()
    }

    /// Appends the latest weigh-in again, dated `now`; returns it.
    public static func logLatest(in container: W8TrackrContainer, at now: Date) throws -> WeighIn {
        var logged: WeighIn?
        try container.updateWeighIns { weighIns in
            guard let last = weighIns.last(where: { $0.date <= now }) else { throw LogWeightError.noWeighIn }
            let today = WeighIn(date: now, weight: last.weight, unit: last.unit)
            weighIns.append(today)
            logged = today
        }
        guard let logged else { throw LogWeightError.noWeighIn }
        return logged
    }
}

public enum LogWeightError: Error, CustomStringConvertible {
    case noContainer
    case noWeighIn

    public var description: String {
        switch self {
        case .noContainer:
            "no container for the App Group \(W8TrackrContainer.appGroup); add it to the extension's entitlements"
        case .noWeighIn: "there is no weigh-in to log again yet; log one in the app first"
        }
    }
}
