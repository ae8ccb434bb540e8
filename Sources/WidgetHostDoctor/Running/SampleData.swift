import Foundation

/// What the containing app writes into its app groups, shipped in the bundle so the doctor
/// can play the app: `NAME.appex/Resources/AppGroups/GROUP/…`, one directory per group id,
/// copied into that group's container before a run. The directory names are also the
/// groups the app writes to, which the entitlements must list.
struct SampleData: Sendable {
    static let relativePath = "Resources/AppGroups"

    /// Group id → the directory holding its sample files.
    var groups: [String: URL]

    init(bundle: URL) {
        let root = bundle.appendingPathComponent(Self.relativePath)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var groups: [String: URL] = [:]
        for name in names where name.hasPrefix("group.") {
            var isDirectory: ObjCBool = false
            let url = root.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                groups[name] = url
            }
        }
        self.groups = groups
    }

    var isEmpty: Bool { groups.isEmpty }

    /// Copies each group's sample files into `container(group)`.
    func seed(into container: (String) -> URL?) throws {
        for (group, source) in groups.sorted(by: { $0.key < $1.key }) {
            guard let destination = container(group) else { continue }
            for item in try FileManager.default.contentsOfDirectory(atPath: source.path) {
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(item), to: destination.appendingPathComponent(item))
            }
        }
    }
}
