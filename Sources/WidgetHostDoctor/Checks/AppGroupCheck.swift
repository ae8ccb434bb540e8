import Foundation
import WidgetHostBundles

/// The "missing App Group entitlement" pitfall: the app writes into a group the extension
/// is not entitled to, so `containerURL(forSecurityApplicationGroupIdentifier:)` returns nil
/// in the extension and the widget shows its empty state forever. The groups the app
/// writes come from `--app-group` and from the sample data the bundle ships.
enum AppGroupCheck {
    static let title = "the app group entitlement lists every group the app writes to"

    static func run(_ bundle: ExtensionBundle, appWrites stated: [String], sampleData: SampleData) -> Finding {
        let entitlementsFile = bundle.entitlements?.lastPathComponent
            ?? "\(bundle.directory.deletingPathExtension().lastPathComponent).entitlements"
        let key = ExtensionBundle.appGroupsEntitlement
        var sources: [String: [String]] = [:]
        for group in stated { sources[group, default: []].append("--app-group") }
        for group in sampleData.groups.keys { sources[group, default: []].append("sample data") }
        let expected = sources.keys.sorted()

        guard !expected.isEmpty else {
            let entitled = bundle.appGroups.isEmpty
                ? "the extension is entitled to no app group"
                : "the extension is entitled to \(bundle.appGroups.joined(separator: ", "))"
            return Finding(
                .appGroup, .warn, title: title,
                detail: "not compared: \(entitled), and nothing says which group the app writes to",
                fix: "Pass --app-group GROUP with the id the app's code writes to, or ship what the app writes in "
                    + "\(bundle.directory.lastPathComponent)/\(SampleData.relativePath)/GROUP/")
        }
        let missing = expected.filter { !bundle.appGroups.contains($0) }
        guard missing.isEmpty else {
            let listed = bundle.appGroups.isEmpty
                ? "lists no app groups" : "lists only \(bundle.appGroups.joined(separator: ", "))"
            let extra = bundle.appGroups.filter { !expected.contains($0) }
            let typo = missing.count == 1 && extra.count == 1 ? " (\(extra[0]) instead: a typo?)" : ""
            let what = missing.map { "\($0) (from \(sources[$0]!.joined(separator: " and ")))" }
            return Finding(
                .appGroup, .fail, title: title,
                detail: "the app writes to \(what.joined(separator: ", ")), but \(entitlementsFile) \(listed)\(typo); "
                    + "in the extension containerURL(forSecurityApplicationGroupIdentifier:) returns nil for "
                    + "\(missing.count == 1 ? "it" : "them") and the widget shows its empty state forever",
                fix: "Add " + missing.map { "<string>\($0)</string>" }.joined(separator: " ")
                    + " to \(key) in \(entitlementsFile), the same id the app's entitlements use")
        }
        let from = expected.map { "\($0) (from \(sources[$0]!.joined(separator: " and ")))" }
        return Finding(
            .appGroup, .pass, title: title,
            detail: "the app writes to \(from.joined(separator: ", ")); \(entitlementsFile) lists it")
    }
}
