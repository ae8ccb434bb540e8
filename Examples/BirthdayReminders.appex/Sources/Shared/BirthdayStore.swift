import Foundation
import WidgetKit

/// The birthdays the app shares with its widget extension: `birthdays.json` in the
/// `group.com.birthdayreminders` container. (The original app shares a SwiftData store;
/// here a JSON file written atomically plays that part.)
public struct BirthdayStore: Sendable {
    public static let appGroup = "group.com.birthdayreminders"
    public static let fileName = "birthdays.json"

    public let fileURL: URL

    public init(container: URL) {
        fileURL = container.appendingPathComponent(Self.fileName)
    }

    /// The store in the app group container, or nil when this process is not entitled to
    /// it — the widget then shows its empty state, as a widget missing the entitlement does.
    public static func shared() -> BirthdayStore? {
        AppGroup.containerURL(forSecurityApplicationGroupIdentifier: appGroup).map(BirthdayStore.init)
    }

    private struct File: Codable {
        var birthdays: [Birthday]
    }

    /// No file yet (first launch) is an empty list, not an error.
    public func load() throws -> [Birthday] {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return [] }
        return try Self.decode(Data(contentsOf: fileURL))
    }

    public static func decode(_ data: Data) throws -> [Birthday] {
        try JSONDecoder().decode(File.self, from: data).birthdays
    }

    /// Written to a temporary file and renamed over the old one, so the widget never
    /// reads half a list.
    public func save(_ birthdays: [Birthday]) throws {
        try FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(File(birthdays: birthdays)).write(to: fileURL, options: .atomic)
    }
}
