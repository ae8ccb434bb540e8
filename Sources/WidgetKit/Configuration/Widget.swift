/// One widget kind an extension offers. Its body is a configuration, usually a
/// `StaticConfiguration`. `init()` lets the SDK create it, so a single widget can be
/// the extension's `@main` type.
public protocol Widget {
    associatedtype Body: WidgetConfiguration
    init()
    var body: Body { get }
}

extension Widget {
    /// Serves the extension channel on stdin/stdout for this one widget; never returns.
    public static func main() {
        ExtensionMain.run(named: "\(Self.self)") { try ExtensionServer(widget: Self()) }
    }
}
