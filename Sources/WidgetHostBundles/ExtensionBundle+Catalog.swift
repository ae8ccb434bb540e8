import Foundation
import WidgetHostCore
import WidgetHostProtocol

extension ExtensionBundle {
    /// The extension as the core knows it, once `initialize` has listed its widgets.
    public func descriptor(
        widgets: [WidgetDescriptor], controls: [ControlDescriptor] = [], activities: [String] = [],
        pipelining: Bool = false
    ) -> ExtensionDescriptor {
        ExtensionDescriptor(
            id: bundleID, app: appID, displayName: displayName, widgets: widgets, controls: controls,
            frequentPushUpdates: frequentPushUpdates, activities: activities, pipelining: pipelining)
    }

    /// The extension as `extensions` and `rescan` show it.
    public func loaded(widgets: [WidgetDescriptor], controls: [ControlDescriptor] = []) -> LoadedExtension {
        LoadedExtension(
            id: bundleID, app: appID, displayName: displayName, path: directory.path, appGroups: appGroups,
            widgets: widgets, controls: controls.isEmpty ? nil : controls)
    }
}

extension ExtensionBundle {
    /// Whether the entitlements file (already read and checked once) sets the frequent-updates
    /// entitlement to true; ActivityKit's push budget is higher for its app.
    static func grantsFrequentPushUpdates(_ url: URL) -> Bool {
        guard let data = try? Data(contentsOf: url),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else { return false }
        return plist[ActivityRules.frequentUpdatesEntitlement] as? Bool == true
    }
}
