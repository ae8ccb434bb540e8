import Foundation

/// Where `widgethost-sandbox` is: beside the running executable (the build directory, where
/// `swift build` puts it next to widgethostd, widgethost and the test bundle), then under
/// `../libexec/widgethost/` (PREFIX/bin → PREFIX/libexec/widgethost, where scripts/install.sh
/// and the Debian package put it).
public enum SandboxShim {
    public static let name = "widgethost-sandbox"

    public static func candidates(besides executable: String) -> [String] {
        let directory = (executable as NSString).deletingLastPathComponent
        let prefix = (directory as NSString).deletingLastPathComponent
        return [
            (directory as NSString).appendingPathComponent(name),
            (prefix as NSString).appendingPathComponent("libexec/widgethost/\(name)"),
            "/usr/libexec/widgethost/\(name)",
        ]
    }

    /// The shim for this process, or nil.
    public static let path: String? = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return candidates(besides: executable).first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}
