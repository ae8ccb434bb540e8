import Foundation
import WidgetHostBundles

/// A scratch directory for one doctor run: a fresh set of app group containers for every
/// process, so that what one run writes never changes the next.
final class Workspace {
    enum Containers {
        /// Filled with the bundle's sample data, as after the app has run.
        case seeded
        /// Empty, as on first launch before the app has written anything.
        case empty
    }

    struct Prepared {
        var launch: ExtensionLaunch
        /// Group id → its container, for the groups the entitlements list.
        var containers: [(group: String, url: URL)]
        /// Where every container of this run lies, side by side, as under `app_groups.path`.
        var groupsRoot: URL
    }

    let root: URL
    let bundle: ExtensionBundle
    let sampleData: SampleData
    let inheritedEnvironment: [String: String]
    let extraEnvironment: [String: String]
    private var counter = 0

    init(
        bundle: ExtensionBundle, sampleData: SampleData, temporaryDirectory: URL, inheritedEnvironment: [String: String],
        extraEnvironment: [String: String]
    ) throws {
        root = temporaryDirectory.appendingPathComponent("widgethost-doctor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        self.bundle = bundle
        self.sampleData = sampleData
        self.inheritedEnvironment = inheritedEnvironment
        self.extraEnvironment = extraEnvironment
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The launch the host would make (the same `ExtensionLaunch(preparing:)`), with
    /// containers of its own under the workspace.
    func prepare(_ containers: Containers) throws -> Prepared {
        counter += 1
        let groupsRoot = root.appendingPathComponent("run-\(counter)")
        let launch = try ExtensionLaunch(
            preparing: bundle, appGroupsPath: groupsRoot.path, inheritedEnvironment: inheritedEnvironment,
            extra: extraEnvironment)
        let made = bundle.appGroups.sorted().map { (group: $0, url: groupsRoot.appendingPathComponent($0)) }
        if containers == .seeded {
            // A group the app writes to but the entitlements do not list gets its container too,
            // beside the others, as the host has it: the extension is refused it, as on a device.
            try sampleData.seed { group in
                let url = groupsRoot.appendingPathComponent(group)
                if !made.contains(where: { $0.group == group }) { _ = try? AppGroupContainer.make(at: url.path) }
                return url
            }
        }
        return Prepared(launch: launch, containers: made, groupsRoot: groupsRoot)
    }
}
