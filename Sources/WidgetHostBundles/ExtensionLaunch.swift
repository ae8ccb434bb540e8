import Foundation

/// How to start one bundle's executable: what the host, the harness and the doctor all
/// spawn, prepared from the bundle the same way for each.
public struct ExtensionLaunch: Sendable, Hashable {
    public var bundleID: String
    public var executable: String
    /// The `NAME.appex` directory.
    public var directory: String
    /// The whole environment the process gets; nothing else is inherited.
    public var environment: [String: String]
    /// The bundle is entitled to outgoing network connections (`com.apple.security.network.client`).
    public var networkClient: Bool

    public init(
        bundleID: String, executable: String, directory: String, environment: [String: String], networkClient: Bool = false
    ) {
        self.bundleID = bundleID
        self.executable = executable
        self.directory = directory
        self.environment = environment
        self.networkClient = networkClient
    }

    /// The entitled app groups and their containers, from `WIDGETHOST_APP_GROUPS`, in order.
    public var appGroupContainers: [(group: String, container: String)] {
        (environment["WIDGETHOST_APP_GROUPS"] ?? "").split(separator: ":").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (group: String(parts[0]), container: String(parts[1]))
        }
    }

    /// The variables that survive from the host's own environment (DESIGN.md: the rest is cleared).
    public static let inheritedVariables = ["PATH", "LANG", "TZ"]
    /// PATH when the host has none.
    public static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// The launch for `bundle`: the environment cleared except PATH, LANG and TZ, plus
    /// `WIDGETHOST_BUNDLE` and `WIDGETHOST_APP_GROUPS` (docs/protocol.md), and `extra` on top
    /// (libfaketime's variables). Each app group the bundle is entitled to gets its container
    /// under `appGroupsPath`, created here if missing.
    public init(
        preparing bundle: ExtensionBundle, appGroupsPath: String, inheritedEnvironment: [String: String],
        extra: [String: String] = [:]
    ) throws {
        var environment = inheritedEnvironment.filter { Self.inheritedVariables.contains($0.key) }
        if environment["PATH"] == nil { environment["PATH"] = Self.defaultPath }
        environment["WIDGETHOST_BUNDLE"] = bundle.directory.path
        var groups: [String] = []
        for group in bundle.appGroups.sorted() {
            let container = (appGroupsPath as NSString).appendingPathComponent(group)
            try AppGroupContainer.make(at: container)
            groups.append("\(group)=\(container)")
        }
        environment["WIDGETHOST_APP_GROUPS"] = groups.joined(separator: ":")
        environment.merge(extra) { _, extra in extra }
        self.init(
            bundleID: bundle.bundleID, executable: bundle.executable.path, directory: bundle.directory.path,
            environment: environment, networkClient: bundle.networkClient)
    }
}
