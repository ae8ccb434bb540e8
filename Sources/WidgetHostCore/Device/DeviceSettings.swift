import Foundation
import WidgetHostProtocol

/// The simulated device's settings that reach every extension: its locale and text size.
/// A change to either is one of Apple's exemptions: every widget reloads, unbudgeted.
public struct DeviceSettings: Sendable, Hashable, Codable {
    /// `fr_FR`; nil: the host's own.
    public var locale: String?
    /// SwiftUI's `DynamicTypeSize` name; nil: `large`.
    public var dynamicTypeSize: String?

    public init(locale: String? = nil, dynamicTypeSize: String? = nil) {
        self.locale = locale
        self.dynamicTypeSize = dynamicTypeSize
    }

    /// What extensions are told: the settings in every request's environment.
    var environment: ViewEnvironment? {
        guard locale != nil || dynamicTypeSize != nil else { return nil }
        return ViewEnvironment(locale: locale, dynamicTypeSize: dynamicTypeSize)
    }

    /// Why a setting is refused, or nil.
    static func problem(locale: String?, dynamicTypeSize: String?) -> String? {
        if let locale, !isLocaleIdentifier(locale) {
            return "\"\(locale)\" is not a locale identifier; write it as language_REGION, e.g. fr_FR or en_US"
        }
        if let size = dynamicTypeSize, !DynamicTypeSizeName.all.contains(size) {
            return "\"\(size)\" is not a Dynamic Type size; one of " + DynamicTypeSizeName.all.joined(separator: ", ")
        }
        return nil
    }

    /// `fr`, `fr_FR`, `zh-Hant-TW`, `en_US_POSIX`: letters and digits in parts of 2–8 joined by `_` or `-`,
    /// the first 2–3 letters. Anything else (a path, a shell word) is refused before it reaches an environment.
    static func isLocaleIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
