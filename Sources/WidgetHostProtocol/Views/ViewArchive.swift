import Foundation

/// A widget's view for one entry, as the extension rendered it: a versioned tree of view
/// nodes (docs/protocol.md, "View archives"). The extension renders; the host stores the
/// archive with its entry and displays it at the entry's date without asking again.
///
/// Everything in it is untrusted: decoding never fails on an unknown node, modifier, colour
/// or enum value (each becomes `.unknown` or a default), and the host bounds node count and
/// depth (`ViewArchiveLimits` in the core) before storing it.
public struct ViewArchive: Sendable, Hashable, Codable {
    /// The archive format this build writes. A host reads every version up to its own; a
    /// newer archive's unknown nodes show as placeholders.
    public static let currentVersion = 1

    public var version: Int
    /// The family the view was rendered for (`@Environment(\.widgetFamily)`).
    public var family: WidgetFamily?
    /// The environment the view was rendered in.
    public var environment: ViewEnvironment
    public var root: ViewNode
    /// Set by the host when it refused the archive (too many nodes, too deep): the entry then
    /// shows the widget's placeholder, and the diagnostic says why. Never sent by an extension.
    public var rejected: String?

    public init(
        version: Int = ViewArchive.currentVersion, family: WidgetFamily?, environment: ViewEnvironment = .init(),
        root: ViewNode, rejected: String? = nil
    ) {
        self.version = version
        self.family = family
        self.environment = environment
        self.root = root
        self.rejected = rejected
    }

    private enum CodingKeys: String, CodingKey { case version, family, environment, root, rejected }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = (try? container.decode(Int.self, forKey: .version)) ?? Self.currentVersion
        family = try? container.decodeIfPresent(WidgetFamily.self, forKey: .family)
        environment = (try? container.decodeIfPresent(ViewEnvironment.self, forKey: .environment)) ?? ViewEnvironment()
        root = (try? container.decodeIfPresent(ViewNode.self, forKey: .root)) ?? ViewNode(.unknown(type: "(missing root)"))
        rejected = try? container.decodeIfPresent(String.self, forKey: .rejected)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(family, forKey: .family)
        try container.encode(environment, forKey: .environment)
        try container.encode(root, forKey: .root)
        try container.encodeIfPresent(rejected, forKey: .rejected)
    }
}

/// The environment a view is rendered in: what the host asks for in a request's
/// `environment` param, and what the archive records. Every field has SwiftUI's default.
public struct ViewEnvironment: Sendable, Hashable, Codable {
    public enum ColorScheme: String, Sendable, Hashable, Codable, CaseIterable { case light, dark }
    /// WidgetKit's `WidgetRenderingMode`.
    public enum RenderingMode: String, Sendable, Hashable, Codable, CaseIterable { case fullColor, accented, vibrant }

    public var colorScheme: ColorScheme
    public var widgetRenderingMode: RenderingMode
    public var showsWidgetContainerBackground: Bool
    public var displayScale: Double
    /// The device's locale, a BCP 47 / POSIX identifier (`fr_FR`); absent: the process's own
    /// (protocol version 3).
    public var locale: String?
    /// SwiftUI's `DynamicTypeSize` (`xSmall` … `accessibility5`); absent: `large` (protocol version 3).
    public var dynamicTypeSize: String?

    public init(
        colorScheme: ColorScheme = .light, widgetRenderingMode: RenderingMode = .fullColor,
        showsWidgetContainerBackground: Bool = true, displayScale: Double = 3, locale: String? = nil,
        dynamicTypeSize: String? = nil
    ) {
        self.colorScheme = colorScheme
        self.widgetRenderingMode = widgetRenderingMode
        self.showsWidgetContainerBackground = showsWidgetContainerBackground
        self.displayScale = displayScale
        self.locale = locale
        self.dynamicTypeSize = dynamicTypeSize
    }

    private enum CodingKeys: String, CodingKey {
        case colorScheme, widgetRenderingMode, showsWidgetContainerBackground, displayScale, locale, dynamicTypeSize
    }

    /// Unknown values fall back to the defaults rather than failing the request or the entry.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ViewEnvironment()
        colorScheme = container.lenient(ColorScheme.self, .colorScheme) ?? defaults.colorScheme
        widgetRenderingMode = container.lenient(RenderingMode.self, .widgetRenderingMode) ?? defaults.widgetRenderingMode
        showsWidgetContainerBackground =
            (try? container.decodeIfPresent(Bool.self, forKey: .showsWidgetContainerBackground)) ?? nil
            ?? defaults.showsWidgetContainerBackground
        let scale = (try? container.decodeIfPresent(Double.self, forKey: .displayScale)) ?? nil
        displayScale = scale.map { min(max($0, 1), 4) } ?? defaults.displayScale
        locale = (try? container.decodeIfPresent(String.self, forKey: .locale)) ?? nil
        dynamicTypeSize = (try? container.decodeIfPresent(String.self, forKey: .dynamicTypeSize)) ?? nil
    }
}

extension KeyedDecodingContainer {
    /// A value that decodes, or nil: for optional and enum fields of untrusted archives.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// A finite number, or nil.
    func number(_ key: Key) -> Double? {
        guard let value = lenient(Double.self, key), value.isFinite else { return nil }
        return value
    }
}

extension ViewArchive {
    /// An entry's `view`: absent is nil; present but not an archive at all (a string, an
    /// array) is an archive whose root is unknown, so that the host reports it rather than
    /// failing the whole reply.
    static func lenient<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, forKey key: Key) -> ViewArchive? {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return nil }
        return (try? container.decode(ViewArchive.self, forKey: key)) ?? notAnArchive
    }

    /// The same for a view already read as a plain value (`TimelineReplyReader`): null is nil,
    /// anything that does not decode an archive whose root is unknown.
    static func lenient(_ value: JSONValue) -> ViewArchive? {
        if value == .null { return nil }
        return (try? JSONValueDecoder.decode(ViewArchive.self, from: value)) ?? notAnArchive
    }

    /// What both give for a view that is not an archive at all.
    private static var notAnArchive: ViewArchive {
        ViewArchive(family: nil, root: ViewNode(.unknown(type: "(view is not an object)")))
    }
}
