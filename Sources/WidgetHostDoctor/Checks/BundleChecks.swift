import Foundation
import WidgetHostBundles

/// The files of the bundle, as the host reads them (`ExtensionBundle.load`): a well-formed
/// Info.plist, the WidgetKit extension point, the executable, the entitlements. The reader
/// stops at the first problem, so the lines after it are reported as not checked.
enum BundleChecks {
    /// The lines in the order the reader checks them.
    static let order: [CheckID] = [.infoPlist, .executable, .extensionPoint, .entitlements]

    static func title(_ check: CheckID, bundleName: String) -> String {
        switch check {
        case .infoPlist: "\(bundleName) has a well-formed Info.plist with CFBundleIdentifier and CFBundleExecutable"
        case .executable: "the executable CFBundleExecutable names is in the bundle and executable"
        case .extensionPoint: "NSExtension.NSExtensionPointIdentifier is \(ExtensionBundle.widgetKitExtensionPoint)"
        case .entitlements: "the .entitlements file is a well-formed property list of app groups"
        default: check.rawValue
        }
    }

    static func run(_ directory: URL) -> (findings: [Finding], bundle: ExtensionBundle?) {
        let name = directory.lastPathComponent
        do {
            let bundle = try ExtensionBundle.load(at: directory)
            return (passed(bundle, name: name), bundle)
        } catch {
            let failing = check(for: error)
            let index = order.firstIndex(of: failing) ?? 0
            var findings: [Finding] = []
            for (position, check) in order.enumerated() {
                let title = title(check, bundleName: name)
                if position < index {
                    findings.append(Finding(check, .pass, title: title, detail: "ok"))
                } else if position == index {
                    let (what, fix) = split(error)
                    findings.append(Finding(check, .fail, title: title, detail: what, fix: fix))
                } else {
                    findings.append(
                        Finding(check, .skipped, title: title, detail: "not checked: the host stops at the failure above"))
                }
            }
            return (findings, nil)
        }
    }

    /// Which line a problem belongs to.
    static func check(for problem: BundleProblem) -> CheckID {
        switch problem.kind {
        case .executableMissing, .executableNotExecutable: .executable
        case .extensionMissing, .extensionPointMissing, .extensionPointWrong: .extensionPoint
        case .entitlementsMalformed, .entitlementsAmbiguous, .appGroupInvalid: .entitlements
        case .wrongType: problem.file.hasSuffix(".entitlements") ? .entitlements : .infoPlist
        case .notAppex, .notADirectory, .infoPlistMissing, .infoPlistMalformed, .identifierMissing,
            .identifierInvalid, .executableKeyMissing, .executableNameInvalid, .duplicateIdentifier:
            .infoPlist
        }
    }

    /// The host's sentence `file: what; fix` as the finding's detail and fix.
    static func split(_ problem: BundleProblem) -> (String, String) {
        guard let separator = problem.message.range(of: "; ") else {
            return (problem.description, problem.message)
        }
        let what = "\(problem.file): \(problem.message[..<separator.lowerBound])"
        let fix = String(problem.message[separator.upperBound...])
        return (what, fix.prefix(1).uppercased() + fix.dropFirst())
    }

    private static func passed(_ bundle: ExtensionBundle, name: String) -> [Finding] {
        let executable = bundle.executable.lastPathComponent
        var findings = [
            Finding(
                .infoPlist, .pass, title: title(.infoPlist, bundleName: name),
                detail: "\(bundle.bundleID) (app \(bundle.appID)), display name \"\(bundle.displayName)\""),
            Finding(.executable, .pass, title: title(.executable, bundleName: name), detail: executable),
            Finding(
                .extensionPoint, .pass, title: title(.extensionPoint, bundleName: name),
                detail: ExtensionBundle.widgetKitExtensionPoint),
        ]
        let entitlementsTitle = title(.entitlements, bundleName: name)
        if bundle.warnings.isEmpty {
            let file = bundle.entitlements?.lastPathComponent ?? "no file"
            let groups = bundle.appGroups.isEmpty ? "no app groups" : bundle.appGroups.joined(separator: ", ")
            findings.append(Finding(.entitlements, .pass, title: entitlementsTitle, detail: "\(file): \(groups)"))
        } else {
            // The reader's warnings say what is missing and what to add.
            let sentences = bundle.warnings.map { warning -> (String, String) in
                guard let separator = warning.range(of: "; ") else { return (warning, warning) }
                return (String(warning[..<separator.lowerBound]), String(warning[separator.upperBound...]))
            }
            findings.append(
                Finding(
                    .entitlements, .warn, title: entitlementsTitle,
                    detail: sentences.map(\.0).joined(separator: "; "),
                    fix: sentences.map { $0.1.prefix(1).uppercased() + $0.1.dropFirst() }.joined(separator: "; ")))
        }
        return findings
    }
}
