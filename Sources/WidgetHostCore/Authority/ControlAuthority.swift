import WidgetHostProtocol

/// Who is on the other end of a control connection, as the shell found out from the kernel.
public struct ControlPeer: Sendable, Hashable {
    /// `SO_PEERCRED`.
    public var uid: UInt32
    public var gid: UInt32
    /// Supplementary groups (`SO_PEERGROUPS`).
    public var groups: [UInt32]
    /// The bundle id of the host's own extension process this peer belongs to (its process
    /// group, which the sandbox does not let it leave), or nil for any other process.
    public var extensionBundleID: String?

    public init(uid: UInt32, gid: UInt32, groups: [UInt32] = [], extensionBundleID: String? = nil) {
        self.uid = uid
        self.gid = gid
        self.groups = groups
        self.extensionBundleID = extensionBundleID
    }

    /// The app the extension belongs to (`com.example.app.widget` → `com.example.app`).
    public var extensionApp: String? { extensionBundleID.map(ExtensionDescriptor.appID(forExtension:)) }
}

/// Who may do what on the control socket (docs/security.md, docs/rules.md):
/// - admin methods (`ControlMethod.requiresAdmin`) need root, the daemon's own uid, or a
///   primary or supplementary group in `control.admin_groups`;
/// - a peer that is one of the host's own extension processes is never admin, whatever its
///   uid (it runs as the daemon's user), may call only the methods a widget extension may
///   call on a device (`ControlMethod.availableToExtensions`), acts only for its own app,
///   and is never in the foreground;
/// - `control.app_uids` pins an app id to the uids allowed to claim it.
public struct ControlAuthority: Sendable, Hashable {
    public var daemonUID: UInt32
    public var adminGroupIDs: [UInt32]
    public var appUIDs: [String: [UInt32]]

    public init(daemonUID: UInt32, adminGroupIDs: [UInt32] = [], appUIDs: [String: [UInt32]] = [:]) {
        self.daemonUID = daemonUID
        self.adminGroupIDs = adminGroupIDs
        self.appUIDs = appUIDs
    }

    /// Why a request is refused: a sentence with the fix, for a JSON-RPC permission error.
    public struct Denial: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public func isAdmin(_ peer: ControlPeer?) -> Bool {
        guard let peer, peer.extensionBundleID == nil else { return false }
        return peer.uid == 0 || peer.uid == daemonUID || adminGroupIDs.contains(peer.gid)
            || peer.groups.contains { adminGroupIDs.contains($0) }
    }

    /// Whether `peer` may call `method` at all.
    public func authorize(_ method: ControlMethod, peer: ControlPeer?) -> Denial? {
        if let bundle = peer?.extensionBundleID, !method.availableToExtensions {
            return Denial(
                "\(method.rawValue) is not available to widget extensions; the connection comes from \(bundle)'s process, which may only reload its own app's widgets and controls (reloadTimelines, reloadAllTimelines, getCurrentConfigurations, reloadControls)")
        }
        if method.requiresAdmin, !isAdmin(peer) {
            return Denial(
                "\(method.rawValue) needs root, the daemon's own user or a group in control.admin_groups; "
                    + "uid \(peer.map { String($0.uid) } ?? "unknown") is none of these")
        }
        return nil
    }

    /// The app a request acts for once `peer`'s claim is checked: an extension acts for its own
    /// app (a request that names none is its own app's); others for the app they claim, if
    /// `control.app_uids` lets their uid.
    public func app(claimed app: String?, by peer: ControlPeer?) -> Result<String?, Denial> {
        if let own = peer?.extensionApp {
            guard app == nil || app == own else {
                return .failure(
                    Denial("\(peer?.extensionBundleID ?? own) may act only for its own app \(own), not for \(app ?? "")"))
            }
            return .success(own)
        }
        guard let app, let allowed = appUIDs[app] else { return .success(app) }
        if let peer, allowed.contains(peer.uid) || peer.uid == 0 { return .success(app) }
        return .failure(
            Denial(
                "uid \(peer.map { String($0.uid) } ?? "unknown") may not act for app \(app) "
                    + "(control.app_uids allows \(allowed.map(String.init).joined(separator: ", ")))"))
    }

    /// A foreground (exempt) reload: an extension is never its app in the foreground.
    public func foreground(_ foreground: Bool, by peer: ControlPeer?) -> Denial? {
        guard foreground, let bundle = peer?.extensionBundleID else { return nil }
        return Denial(
            "\(bundle) asked for a foreground reload, but an extension is never in the foreground; omit foreground (the reload is budgeted)")
    }
}
