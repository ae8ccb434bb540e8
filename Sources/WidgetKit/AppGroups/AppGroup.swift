/// The shared containers of the app groups this extension is entitled to.
///
/// The host lists them in `WIDGETHOST_APP_GROUPS` as colon-separated `id=path` pairs,
/// e.g. `group.com.birthdayreminders=/var/lib/widgethost/AppGroups/group.com.birthdayreminders`,
/// and lists only the groups in the extension's `.entitlements`. Any other group gives
/// nil, exactly as on a device when the extension target lacks the App Group
/// entitlement: the widget then finds no shared data and shows its empty state.
/// (A path cannot contain ":", the pair separator.)
public enum AppGroup {
    public static let environmentVariable = "WIDGETHOST_APP_GROUPS"

    /// The container directory for `groupIdentifier`, or nil if this extension is not entitled to it.
    public static func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        containerURL(
            forSecurityApplicationGroupIdentifier: groupIdentifier,
            environment: ProcessInfo.processInfo.environment)
    }

    static func containerURL(
        forSecurityApplicationGroupIdentifier groupIdentifier: String, environment: [String: String]
    ) -> URL? {
        guard let list = environment[environmentVariable] else { return nil }
        return containers(in: list)[groupIdentifier]
    }

    /// Parses `id=path:id=path`. Malformed pairs (no "=", an empty id or path) are skipped;
    /// when an id repeats, the first pair wins.
    static func containers(in list: String) -> [String: URL] {
        var containers: [String: URL] = [:]
        for pair in list.split(separator: ":") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let id = String(pair[..<equals])
            let path = String(pair[pair.index(after: equals)...])
            guard !id.isEmpty, !path.isEmpty, containers[id] == nil else { continue }
            containers[id] = URL(fileURLWithPath: path, isDirectory: true)
        }
        return containers
    }
}
