#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import WidgetKit

/// The index of saved widgets, `configs/manifest.json`.
public struct WidgyManifest: Codable, Sendable, Hashable {
    public struct Item: Codable, Sendable, Hashable {
        public var widgetID: String
        public var name: String
        public var supportedFamilies: [WidgetFamily]
        public var updatedAt: Date

        enum CodingKeys: String, CodingKey {
            case widgetID = "widget_id", name, supportedFamilies = "supported_families", updatedAt = "updated_at"
        }
    }

    public var schemaVersion = "1.0"
    /// Most recently saved first.
    public var widgets: [Item] = []

    enum CodingKeys: String, CodingKey { case schemaVersion = "schema_version", widgets }

    public init() {}

    /// The widget a home-screen slot of `family` shows: the most recently saved one that
    /// supports it: what a widget whose configuration picks no design shows.
    public func widget(for family: WidgetFamily) -> Item? {
        widgets.first { $0.supportedFamilies.contains(family) }
    }
}

/// Widgy's App Group container (written by the app only, read by both):
/// ```
/// configs/{widget_id}.json   one widget config each
/// configs/manifest.json      the index
/// data.json                  the values {{placeholders}} bind to
/// ```
/// Each file is replaced atomically; saves run under an exclusive `flock` so two saves
/// never drop each other's manifest entry.
public struct WidgyContainer: Sendable {
    public static let appGroup = "group.com.widgy"

    public let url: URL

    public init(url: URL) { self.url = url }

    public static var shared: WidgyContainer? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup).map(WidgyContainer.init)
    }

    public var configsDirectory: URL { url.appendingPathComponent("configs", isDirectory: true) }
    public var manifestURL: URL { configsDirectory.appendingPathComponent("manifest.json") }
    public var dataURL: URL { url.appendingPathComponent("data.json") }

    public func configURL(id: String) -> URL { configsDirectory.appendingPathComponent("\(id).json") }

    // MARK: Reading

    /// The manifest; empty before the first save.
    public func manifest() throws -> WidgyManifest {
        guard let data = try? Data(contentsOf: manifestURL) else { return WidgyManifest() }
        do {
            return try Self.decoder.decode(WidgyManifest.self, from: data)
        } catch {
            throw WidgyError("\(manifestURL.path) is not a Widgy manifest (\(error)); save a widget again to rewrite it")
        }
    }

    /// The data placeholders bind to; an empty object when the app has shared none.
    public func data() -> JSON {
        guard let data = try? Data(contentsOf: dataURL), let json = try? JSONDecoder().decode(JSON.self, from: data)
        else { return .object([:]) }
        return json
    }

    // MARK: Writing (the app)

    /// Validates and saves a config, then records it as the most recent in the manifest.
    @discardableResult
    public func save(_ config: Data, now: Date = Date()) throws -> WidgyConfig {
        let config = try ConfigValidator.validate(config).get()
        try locked {
            try FileManager.default.createDirectory(at: configsDirectory, withIntermediateDirectories: true)
            try Self.encoder.encode(config.source).write(to: configURL(id: config.widgetID), options: .atomic)
            var manifest = try manifest()
            manifest.widgets.removeAll { $0.widgetID == config.widgetID }
            manifest.widgets.insert(
                .init(
                    widgetID: config.widgetID, name: config.name, supportedFamilies: config.supportedFamilies,
                    updatedAt: now), at: 0)
            try Self.encoder.encode(manifest).write(to: manifestURL, options: .atomic)
        }
        return config
    }

    /// Sets one dotted key of `data.json` (`weather.temperature`), keeping the others.
    public func setData(_ key: String, to value: JSON) throws {
        let path = key.split(separator: ".").map(String.init)
        guard !path.isEmpty, Placeholder.isValidName(key) else {
            throw WidgyError("\"\(key)\" is not a data key; use letters, digits, _ and dots, such as weather.temperature")
        }
        try locked {
            var root = data()
            Self.set(&root, path[...], value)
            try Self.encoder.encode(root).write(to: dataURL, options: .atomic)
        }
    }

    /// Replaces `data.json` with `json`, which must be a JSON object.
    public func replaceData(with json: Data) throws {
        guard case .object = try? JSONDecoder().decode(JSON.self, from: json) else {
            throw WidgyError("the data must be a JSON object, such as {\"weather\": {\"temperature\": 18}}")
        }
        try locked { try json.write(to: dataURL, options: .atomic) }
    }

    private static func set(_ node: inout JSON, _ path: ArraySlice<String>, _ value: JSON) {
        guard let key = path.first else {
            node = value
            return
        }
        var fields: [String: JSON] = if case .object(let existing) = node { existing } else { [:] }
        var child = fields[key] ?? .object([:])
        set(&child, path.dropFirst(), value)
        fields[key] = child
        node = .object(fields)
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let path = url.appendingPathComponent(".widgy.lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard fd >= 0 else { throw WidgyError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw WidgyError("cannot lock \(path): \(String(cString: strerror(errno)))") }
        }
        return try body()
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

public struct WidgyError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
