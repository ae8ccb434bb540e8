import WidgetHostProtocol

/// Builds a view from the statements of a closure: several views, `if`, `if let`,
/// `switch`, `if #available`, as SwiftUI's does.
@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }

    public static func buildBlock() -> EmptyView { EmptyView() }

    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        var children: [any View] = []
        repeat children.append(each content)
        return TupleView((repeat each content), children: children)
    }

    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }

    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }

    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

/// Several views from one builder block. In a stack they are the stack's children.
public struct TupleView<T>: _PrimitiveView {
    public var value: T
    private let children: [any View]

    public init(_ value: T) {
        self.value = value
        children = Mirror(reflecting: value).children.compactMap { $0.value as? any View }
    }

    init(_ value: T, children: [any View]) {
        self.value = value
        self.children = children
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.group(children.map { context.archive($0) }))
    }
}

/// One branch of an `if`/`else` or `switch` in a builder.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: _PrimitiveView {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        switch storage {
        case .trueContent(let view): context.archive(view)
        case .falseContent(let view): context.archive(view)
        }
    }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
}

extension Optional: _PrimitiveView where Wrapped: View {
    public func _archive(in context: _ArchiveContext) -> ViewNode {
        switch self {
        case .some(let view): context.archive(view)
        case .none: ViewNode(.empty)
        }
    }
}

/// No view at all.
public struct EmptyView: _PrimitiveView {
    public init() {}
    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.empty) }
}

/// A type-erased view.
public struct AnyView: _PrimitiveView {
    private let view: any View

    public init<V: View>(_ view: V) { self.view = view }

    public init<V: View>(erasing view: V) { self.view = view }

    public func _archive(in context: _ArchiveContext) -> ViewNode { context.archive(view) }
}

/// Groups views without laying them out: its modifiers apply to each of them.
public struct Group<Content: View>: _PrimitiveView {
    let content: Content

    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        let children = context.children(content)
        if children.count == 1 { return children[0] }
        return children.isEmpty ? ViewNode(.empty) : ViewNode(.group(children))
    }
}
