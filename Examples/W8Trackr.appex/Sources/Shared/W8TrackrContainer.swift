#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// W8Trackr's App Group container: the weigh-ins and the shared preferences, one JSON file
/// each. On iOS these live in SwiftData and the group's `UserDefaults`; the files play
/// both here.
///
/// The widget only reads. The app changes a file by read-modify-write under an exclusive
/// `flock` on `.w8trackr.lock` (so two app processes never lose each other's change) and
/// replaces it atomically (write a temporary file, rename), so the widget never reads half
/// a file.
public struct W8TrackrContainer: Sendable {
    public static let appGroup = "group.com.w8trackr"
    public static let weighInsFile = "weighins.json"
    public static let preferencesFile = "preferences.json"

    public let url: URL

    public init(url: URL) { self.url = url }

    /// The group's container, or nil when this process is not entitled to it.
    public static var shared: W8TrackrContainer? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup).map(W8TrackrContainer.init)
    }

    // MARK: Reading (widget and app)

    /// The weigh-ins, oldest first; none when the app has not written any yet.
    public func weighIns() throws -> [WeighIn] {
        try read([WeighIn].self, from: Self.weighInsFile)?.sorted { $0.date < $1.date } ?? []
    }

    /// The preferences; the defaults (lb, no goal) when the app has not written any yet.
    public func preferences() throws -> WeightPreferences {
        try read(WeightPreferences.self, from: Self.preferencesFile) ?? WeightPreferences()
    }

    // MARK: Writing (app)

    public func updateWeighIns(_ change: (inout [WeighIn]) throws -> Void) throws {
        try locked {
            var weighIns = try weighIns()
            try change(&weighIns)
            try write(weighIns.sorted { $0.date < $1.date }, to: Self.weighInsFile)
        }
    }

    public func updatePreferences(_ change: (inout WeightPreferences) throws -> Void) throws {
        try locked {
            var preferences = try preferences()
            try change(&preferences)
            try write(preferences, to: Self.preferencesFile)
        }
    }

    // MARK: Files

    private func read<Value: Decodable>(_ type: Value.Type, from name: String) throws -> Value? {
        let file = url.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: file) else { return nil }
        do {
            return try Self.decoder.decode(type, from: data)
        } catch {
            throw ContainerError.unreadable(file.path, "\(error)")
        }
    }

    private func write(_ value: some Encodable, to name: String) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // `.atomic`: written to a temporary file in the same directory, then renamed over.
        try Self.encoder.encode(value).write(to: url.appendingPathComponent(name), options: .atomic)
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let path = url.appendingPathComponent(".w8trackr.lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard fd >= 0 else { throw ContainerError.lock(path, errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ContainerError.lock(path, errno) }
        }
        return try body()
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

public enum ContainerError: Error, CustomStringConvertible {
    case unreadable(String, String)
    case lock(String, Int32)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "\(path) is not valid W8Trackr data (\(reason)); fix or remove the file"
        case .lock(let path, let code):
            "cannot lock \(path): \(String(cString: strerror(code))); check the App Group directory's permissions"
        }
    }
}
