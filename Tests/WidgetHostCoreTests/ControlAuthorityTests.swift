import Testing
import WidgetHostCore
import WidgetHostProtocol

/// Who may do what on the control socket: admins, apps, and the host's own extensions.
@Suite("The control socket's authority")
struct ControlAuthorityTests {
    let daemonUID: UInt32 = 990
    var authority: ControlAuthority {
        ControlAuthority(daemonUID: daemonUID, adminGroupIDs: [50], appUIDs: ["com.example.pinned": [1001]])
    }
    var extensionPeer: ControlPeer {
        ControlPeer(uid: daemonUID, gid: daemonUID, groups: [50], extensionBundleID: "com.example.app.widget")
    }

    @Test("Root, the daemon's own uid, and a primary or supplementary admin group are admin")
    func admins() {
        #expect(authority.isAdmin(ControlPeer(uid: 0, gid: 0)))
        #expect(authority.isAdmin(ControlPeer(uid: daemonUID, gid: 100)))
        #expect(authority.isAdmin(ControlPeer(uid: 1000, gid: 50)))
        #expect(authority.isAdmin(ControlPeer(uid: 1000, gid: 1000, groups: [24, 50, 100])))
        #expect(!authority.isAdmin(ControlPeer(uid: 1000, gid: 1000, groups: [24, 100])))
        #expect(!authority.isAdmin(nil))
        #expect(authority.authorize(.addWidget, peer: ControlPeer(uid: 1000, gid: 1000, groups: [50])) == nil)
        #expect(
            authority.authorize(.addWidget, peer: ControlPeer(uid: 1000, gid: 1000))?.description
                == "addWidget needs root, the daemon's own user or a group in control.admin_groups; uid 1000 is none of these")
    }

    @Test("An extension process is never admin, whatever its uid and groups", arguments: [UInt32(0), 990])
    func extensionNeverAdmin(uid: UInt32) {
        var peer = extensionPeer
        peer.uid = uid
        #expect(!authority.isAdmin(peer))
        for method in ControlMethod.allCases where method.requiresAdmin {
            #expect(authority.authorize(method, peer: peer) != nil)
        }
    }

    @Test("An extension may call only what WidgetCenter offers a widget extension on a device")
    func extensionMethods() {
        let allowed = ControlMethod.allCases.filter { authority.authorize($0, peer: extensionPeer) == nil }
        #expect(allowed == [.reloadTimelines, .reloadAllTimelines, .getCurrentConfigurations, .reloadControls])
        #expect(
            authority.authorize(.status, peer: extensionPeer)?.description
                == "status is not available to widget extensions; the connection comes from com.example.app.widget's process, which may only reload its own app's widgets and controls (reloadTimelines, reloadAllTimelines, getCurrentConfigurations, reloadControls)")
        // Any other peer may call the same non-admin methods.
        #expect(authority.authorize(.status, peer: ControlPeer(uid: 1000, gid: 1000)) == nil)
    }

    @Test("An extension acts for its own app: unnamed is its own, another app is refused")
    func extensionOwnApp() {
        #expect(authority.app(claimed: nil, by: extensionPeer) == .success("com.example.app"))
        #expect(authority.app(claimed: "com.example.app", by: extensionPeer) == .success("com.example.app"))
        #expect(
            authority.app(claimed: "com.other.app", by: extensionPeer)
                == .failure(.init("com.example.app.widget may act only for its own app com.example.app, not for com.other.app")))
    }

    @Test("An extension is never in the foreground; other peers may ask for it")
    func foreground() {
        #expect(authority.foreground(true, by: extensionPeer) != nil)
        #expect(authority.foreground(false, by: extensionPeer) == nil)
        #expect(authority.foreground(true, by: ControlPeer(uid: 1000, gid: 1000)) == nil)
    }

    @Test("control.app_uids pins an app to its uids; unpinned apps may be claimed by anyone")
    func pinnedApps() {
        #expect(authority.app(claimed: "com.example.pinned", by: ControlPeer(uid: 1001, gid: 1001)) == .success("com.example.pinned"))
        #expect(authority.app(claimed: "com.example.pinned", by: ControlPeer(uid: 0, gid: 0)) == .success("com.example.pinned"))
        #expect(
            authority.app(claimed: "com.example.pinned", by: ControlPeer(uid: 1002, gid: 1002))
                == .failure(.init("uid 1002 may not act for app com.example.pinned (control.app_uids allows 1001)")))
        #expect(authority.app(claimed: "com.example.free", by: ControlPeer(uid: 1002, gid: 1002)) == .success("com.example.free"))
        #expect(authority.app(claimed: nil, by: ControlPeer(uid: 1002, gid: 1002)) == .success(nil))
    }
}
