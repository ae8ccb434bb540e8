import WidgetHostProtocol

/// A piece of a widget's user interface, with SwiftUI's name and shape: a view is either
/// primitive (text, a stack, an image, a modified view — its `Body` is `Never`) or composed
/// of another view through `body`. The extension never draws: it turns the view into an
/// archive (`ViewArchiver`) that the host displays.
///
/// Unlike Apple's, this `View` is not `@MainActor`: an extension archives views on the
/// thread that answers the host, and widget views only compute from their entry. (It
/// refines `SendableMetatype`: no view conforms from inside an actor, so a view type can be
/// archived on any thread.)
public protocol View: SendableMetatype {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
}

extension View where Body == Never {
    public var body: Never {
        fatalError("\(Self.self) is a primitive view; it has no body")
    }
}

/// A view the archiver reads directly instead of through its body. Public only because
/// WidgetKit's views (`AccessoryWidgetBackground`) are primitive too; not for widget code.
public protocol _PrimitiveView: View where Body == Never {
    func _archive(in context: _ArchiveContext) -> ViewNode
}
