import WidgetHostProtocol

/// A view with one modifier applied: a change to the environment its content sees
/// (`gaugeStyle`, `environment(_:_:)`), a modifier node appended to its archive (`padding`,
/// `font`, …), or both. Every modifier of this module returns one of these as `some View`.
public struct _ModifiedView<Content: View>: _PrimitiveView {
    let content: Content
    var environment: ((inout EnvironmentValues) -> Void)?
    /// Built in the outer context, so that a modifier's own view (a background) sees the
    /// environment the modified view is in.
    var modifier: ((_ArchiveContext) -> ViewModifierNode?)?

    init(
        content: Content, environment: ((inout EnvironmentValues) -> Void)? = nil,
        modifier: ((_ArchiveContext) -> ViewModifierNode?)? = nil
    ) {
        self.content = content
        self.environment = environment
        self.modifier = modifier
    }

    init(content: Content, _ modifier: ViewModifierNode) {
        self.init(content: content, modifier: { _ in modifier })
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        let inner = environment.map { context.with($0) } ?? context
        var node = inner.archive(content)
        if let modifier = modifier?(context) { node.modifiers.append(modifier) }
        return node
    }
}

extension View {
    /// Appends a modifier node: for this module's and WidgetKit's modifiers.
    public func _modifier(_ node: ViewModifierNode) -> some View { _ModifiedView(content: self, node) }

    /// Appends a modifier node built in the view's context (one that holds a view), or none.
    public func _modifier(_ build: @escaping (_ArchiveContext) -> ViewModifierNode?) -> some View {
        _ModifiedView(content: self, modifier: build)
    }

    /// Changes the environment of this view's content.
    public func _environment(_ change: @escaping (inout EnvironmentValues) -> Void) -> some View {
        _ModifiedView(content: self, environment: change)
    }
}

/// A reusable modifier: `body(content:)` returns the modified view.
public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder func body(content: Content) -> Body
}

/// The view a `ViewModifier` modifies, as its `body(content:)` sees it.
public struct _ViewModifier_Content<Modifier: ViewModifier>: _PrimitiveView {
    let archiveContent: (_ArchiveContext) -> ViewNode

    public func _archive(in context: _ArchiveContext) -> ViewNode { archiveContent(context) }
}

/// A view with a `ViewModifier` applied.
public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier

    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public typealias Body = Never
}

extension ModifiedContent: _PrimitiveView where Content: View, Modifier: ViewModifier {
    public func _archive(in context: _ArchiveContext) -> ViewNode {
        let content = self.content
        let placeholder = _ViewModifier_Content<Modifier>(archiveContent: { $0.archive(content) })
        return context.archive(modifier.body(content: placeholder))
    }
}

extension View {
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}
