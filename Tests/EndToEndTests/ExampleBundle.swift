import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The example bundles (`Examples/NAME.appex`) as the end-to-end tests load them.
enum ExampleBundle {
    /// The debug products of `swift build`: the examples' extension executables and their apps.
    static let products = RealDaemon.packageRoot.appendingPathComponent(".build/debug")
    /// Where scripts/assemble-plugins.sh assembles every example (`make plugins`; the full suite runs it first).
    static let assembled = RealDaemon.packageRoot.appendingPathComponent(".build/examples")

    /// A plugin directory of its own (`/tmp/wh-NAME-XXXXXX`) holding only `NAME.appex`, laid
    /// out as scripts/assemble-plugins.sh lays it out: `Examples/NAME.appex`'s Info.plist, its
    /// `.entitlements` and `Resources`, and the built executable its `CFBundleExecutable` names.
    /// Needs only `swift build`, not the assembled examples. The caller removes it.
    static func pluginDirectory(holding name: String) throws -> String {
        let source = RealDaemon.packageRoot.appendingPathComponent("Examples/\(name).appex")
        let files = FileManager.default
        var template = Array("/tmp/wh-\(name)-XXXXXX".utf8CString)
        let plugins = String(cString: try #require(mkdtemp(&template)))
        let bundle = plugins + "/\(name).appex"
        try files.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let info = source.appendingPathComponent("Info.plist")
        for file in try files.contentsOfDirectory(atPath: source.path).sorted()
        where file == "Info.plist" || file == "Resources" || file.hasSuffix(".entitlements") {
            try files.copyItem(atPath: source.appendingPathComponent(file).path, toPath: bundle + "/" + file)
        }
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: info), format: nil)
        let executable = try #require((plist as? [String: Any])?["CFBundleExecutable"] as? String, "\(info.path): no CFBundleExecutable")
        let built = products.appendingPathComponent(executable).path
        try #require(files.isExecutableFile(atPath: built), "\(built) is not built; run swift build")
        try files.copyItem(atPath: built, toPath: bundle + "/" + executable)
        return plugins
    }
}
