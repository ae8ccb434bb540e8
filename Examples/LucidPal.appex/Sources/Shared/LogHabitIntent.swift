import AppIntents
import Foundation
import WidgetKit

/// The widget's "Done" button: logs one more habit completed today, as `HabitStore.logEntry`
/// does in the app (seeds/002), and reloads every LucidPal widget. The tapped one reloads at
/// once anyway; the `WidgetCenter` call brings the others (another size, the lock screen) along.
public struct LogHabitIntent: AppIntent {
    public static let title: LocalizedStringResource = "Log a habit"
    public static let description: IntentDescription? = IntentDescription("Marks one more of today's habits done.")

    public init() {}

    public struct NoContainer: Error, CustomStringConvertible {
        public var description: String {
            "the LucidPal App Group (\(LucidPalContainer.appGroup)) is not available; list it in the extension's entitlements"
        }
    }

    public func perform() async throws -> some IntentResult {
        guard let container = LucidPalContainer.shared else { throw NoContainer() }
        try Self.log(in: container)
        WidgetCenter.shared.reloadTimelines(ofKind: LucidPalWidget.kind)
        return .result()
    }

    /// One more habit done today, never more than the habits there are.
    public static func log(in container: LucidPalContainer, now: Date = Date()) throws {
        try container.updateSnapshot { snapshot in
            snapshot.habitsToday = min(snapshot.habitsToday + 1, snapshot.habitsTotal)
            snapshot.writtenAt = now
        }
    }
}
