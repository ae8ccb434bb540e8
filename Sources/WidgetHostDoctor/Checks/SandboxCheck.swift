import Foundation
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// The doctor runs the extension in the host's sandbox (docs/security.md), so a widget that
/// reaches outside its bundle, its app groups and its TMPDIR is refused here as on a device.
/// The kernel does not say which path it refused (Landlock's audit log needs the audit
/// subsystem and privileges a developer's CI lacks), so the extension's own words are read:
/// a line of its stderr (or its failure) that reports a denial — Python's `PermissionError:
/// [Errno 13] Permission denied: '/path'`, Foundation's `NSFilePath=/path` with
/// "you don’t have permission", C's `strerror` — names the path, and the path counts only
/// if the sandbox's own grants (`SandboxProfile`) do not cover it. An extension that swallows
/// the error silently cannot be caught this way; one whose request fails is.
enum SandboxCheck {
    static let title = "it reaches only its bundle, its app groups and its TMPDIR (the sandbox, as on a device)"

    /// A path the sandbox refused, and where it lies.
    struct Refusal: Sendable, Hashable {
        enum Place: Sendable, Hashable {
            /// The container of an app group the entitlements do not list.
            case otherGroup(String)
            /// Its own bundle, which is read-only.
            case bundle
            /// Somewhere it may read but not write (the system).
            case readOnly
            /// Outside every grant.
            case outside
        }

        var path: String
        var place: Place
    }

    /// What a run's extension could reach: its launch's grants and where the containers lie.
    struct Reach: Sendable {
        var profile: SandboxProfile
        var bundle: String
        var groupsRoot: String
        /// Its entitled groups.
        var groups: [String]

        init(launch: ExtensionLaunch, groupsRoot: String, limits: ExtensionLimits) {
            profile = SandboxProfile(describing: launch, limits: limits)
            bundle = launch.directory
            self.groupsRoot = groupsRoot
            groups = launch.appGroupContainers.map(\.group)
        }
    }

    /// Words with which runtimes report EACCES or EPERM.
    static let denials = [
        "permission denied", "errno 13", "eacces", "don’t have permission", "don't have permission",
        "operation not permitted", "errno 1]", "eperm",
    ]

    /// The refused paths `lines` name, in order, each once.
    static func refusals(in lines: [String], reach: Reach) -> [Refusal] {
        var found: [Refusal] = []
        for line in lines where denials.contains(where: { line.lowercased().contains($0) }) {
            for path in paths(in: line) where !found.contains(where: { $0.path == path }) {
                guard let place = place(of: path, reach: reach) else { continue }
                found.append(Refusal(path: path, place: place))
            }
        }
        return found
    }

    /// Absolute paths in `line`: from a "/" after a space, a quote, "=" or the start, to the
    /// next space, quote, comma or bracket.
    static func paths(in line: String) -> [String] {
        let starts: Set<Character> = [" ", "'", "\"", "=", "“", "‘", "(", "[", "`", ":"]
        let ends: Set<Character> = [" ", "'", "\"", ",", "”", "’", ")", "]", "}", "`", ";"]
        var paths: [String] = []
        var current: String?
        var previous: Character?
        for character in line {
            if var path = current {
                if ends.contains(character) {
                    paths.append(path)
                    current = nil
                } else {
                    path.append(character)
                    current = path
                }
            } else if character == "/", previous == nil || starts.contains(previous!) {
                current = "/"
            }
            previous = character
        }
        if let current { paths.append(current) }
        return paths.map { $0.hasSuffix(".") || $0.hasSuffix(":") ? String($0.dropLast()) : $0 }.filter { $0.count > 1 }
    }

    /// Where a path named in a denial lies, or nil when the sandbox grants it (the denial was
    /// someone else's: a file's own mode, say).
    static func place(of path: String, reach: Reach) -> Refusal.Place? {
        let path = (path as NSString).standardizingPath
        if SandboxProfile.covers(reach.profile.write, path) { return nil }
        let root = reach.groupsRoot.hasSuffix("/") ? reach.groupsRoot : reach.groupsRoot + "/"
        if path.hasPrefix(root), let group = path.dropFirst(root.count).split(separator: "/").first,
            !reach.groups.contains(String(group))
        {
            return .otherGroup(String(group))
        }
        // A read of a readable path is not refused: what was refused there was a write.
        if SandboxProfile.covers([reach.bundle], path) { return .bundle }
        if SandboxProfile.covers(reach.profile.read, path) { return .readOnly }
        return .outside
    }

    static func finding(_ runs: [(ExtensionMethod, Caller.Run)], widget: WidgetUnderTest, entitlements: String) -> Finding {
        func finding(_ verdict: Finding.Verdict, _ detail: String, fix: String? = nil) -> Finding {
            Finding(.sandbox, verdict, title: title, detail: detail, fix: fix, kind: widget.kind, family: widget.family)
        }
        for (method, run) in runs {
            guard let launch = run.launch, let groupsRoot = run.groupsRoot else { continue }
            let reach = Reach(launch: launch, groupsRoot: groupsRoot, limits: widget.limits.host.limits)
            var lines = run.outcome.stderrTail
            if case .failure(.failed(.crashed(let message))) = run.outcome.result { lines.append(message) }
            guard let refusal = refusals(in: lines, reach: reach).first else { continue }
            let failed = if case .failure = run.outcome.result { "and \(method.rawValue) failed" } else { "during \(method.rawValue)" }
            let (what, fix) = explain(refusal, reach: reach, entitlements: entitlements)
            return finding(.fail, "the sandbox refused \(refusal.path) (\(what)) \(failed)", fix: fix)
        }
        let mode = widget.limits.host.limits.sandbox
        guard mode != .off else {
            return finding(.skipped, "not checked: limits.sandbox = \"off\" runs the extension unconfined")
        }
        return finding(.pass, "no request reported a path the sandbox refused (limits.sandbox = \"\(mode.rawValue)\")")
    }

    /// What the refused place is, and the fix: the App Group entitlement, or the container.
    static func explain(_ refusal: Refusal, reach: Reach, entitlements: String) -> (what: String, fix: String) {
        let own = reach.groups.first.map { "group \($0)'s container (FileManager.containerURL(forSecurityApplicationGroupIdentifier: \"\($0)\"))" }
            ?? "an app group container: add com.apple.security.application-groups to \(entitlements)"
        switch refusal.place {
        case .otherGroup(let group):
            return (
                "the container of app group \(group), which \(entitlements) does not list",
                "If the app shares \(group) with the widget, add <string>\(group)</string> to "
                    + "com.apple.security.application-groups in \(entitlements); otherwise have the app write what the "
                    + "widget shows into \(own)")
        case .bundle:
            return (
                "its own bundle, which is read-only",
                "Write into \(own) or TMPDIR; an extension's bundle is read-only, as on a device")
        case .readOnly:
            return (
                "a system directory it may only read",
                "Write into \(own) or TMPDIR")
        case .outside:
            return (
                "outside its bundle and its app group containers",
                "Have the app put what the widget reads into \(own), and read it from there; an extension reaches "
                    + "only its bundle, its app groups and TMPDIR")
        }
    }
}
