/// `extensions` and `rescan`: the catalog (the loaded extensions with their kinds), and the
/// bundles skipped with why.
public struct ExtensionsResult: Sendable, Hashable, Codable {
    public var loaded: [LoadedExtension]
    public var skipped: [SkippedBundle]

    public init(loaded: [LoadedExtension], skipped: [SkippedBundle]) {
        self.loaded = loaded
        self.skipped = skipped
    }
}

/// An extension in the catalog and the bundle it was loaded from.
public struct LoadedExtension: Sendable, Hashable, Codable {
    /// The bundle identifier (`CFBundleIdentifier`).
    public var id: String
    public var app: String
    public var displayName: String
    /// Its bundle, the `NAME.appex` directory.
    public var path: String
    public var appGroups: [String]
    public var widgets: [WidgetDescriptor]
    /// Its Control widgets; absent: none.
    public var controls: [ControlDescriptor]?
    /// How its processes are confined; absent from a host that does not say.
    public var sandbox: ExtensionSandbox?

    public init(
        id: String, app: String, displayName: String, path: String, appGroups: [String], widgets: [WidgetDescriptor],
        controls: [ControlDescriptor]? = nil, sandbox: ExtensionSandbox? = nil
    ) {
        self.id = id
        self.app = app
        self.displayName = displayName
        self.path = path
        self.appGroups = appGroups
        self.widgets = widgets
        self.controls = controls
        self.sandbox = sandbox
    }
}

/// A bundle that was not loaded, with a sentence naming the file and the fix.
public struct SkippedBundle: Sendable, Hashable, Codable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// The reply to `subscribe`; then `event` notifications carry `HostNotice`s.
public struct SubscribeResult: Sendable, Hashable, Codable {
    public var subscribed: Bool
    public init(subscribed: Bool = true) { self.subscribed = subscribed }
}
