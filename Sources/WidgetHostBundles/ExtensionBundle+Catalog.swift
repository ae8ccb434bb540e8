import WidgetHostCore
import WidgetHostProtocol

extension ExtensionBundle {
    /// The extension as the core knows it, once `initialize` has listed its widgets.
    public func descriptor(widgets: [WidgetDescriptor], controls: [ControlDescriptor] = []) -> ExtensionDescriptor {
        ExtensionDescriptor(id: bundleID, app: appID, displayName: displayName, widgets: widgets, controls: controls)
    }

    /// The extension as `extensions` and `rescan` show it.
    public func loaded(widgets: [WidgetDescriptor], controls: [ControlDescriptor] = []) -> LoadedExtension {
        LoadedExtension(
            id: bundleID, app: appID, displayName: displayName, path: directory.path, appGroups: appGroups,
            widgets: widgets, controls: controls.isEmpty ? nil : controls)
    }
}
