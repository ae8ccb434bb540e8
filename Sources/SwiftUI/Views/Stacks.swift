import WidgetHostProtocol

/// Children top to bottom.
public struct VStack<Content: View>: _PrimitiveView {
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.vstack(alignment: alignment.name, spacing: finite(spacing), children: context.children(content)))
    }
}

/// Children leading to trailing.
public struct HStack<Content: View>: _PrimitiveView {
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.hstack(alignment: alignment.name, spacing: finite(spacing), children: context.children(content)))
    }
}

/// Children on top of each other, the first at the back.
public struct ZStack<Content: View>: _PrimitiveView {
    let alignment: Alignment
    let content: Content

    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.zstack(alignment: alignment.name, children: context.children(content)))
    }
}

/// Flexible space along the stack's axis.
public struct Spacer: _PrimitiveView, Sendable, Hashable {
    public var minLength: CGFloat?
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }
    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.spacer(minLength: finite(minLength))) }
}

/// A thin line across the stack's axis.
public struct Divider: _PrimitiveView, Sendable, Hashable {
    public init() {}
    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.divider) }
}

/// The first of its children that fits the space offered, along `axes`.
public struct ViewThatFits<Content: View>: _PrimitiveView {
    let axes: Axis.Set
    let content: Content

    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        var names: [String] = []
        if axes.contains(.horizontal) { names.append("horizontal") }
        if axes.contains(.vertical) { names.append("vertical") }
        return ViewNode(.viewThatFits(axes: names, children: context.children(content)))
    }
}

/// A view per element of a collection.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: _PrimitiveView {
    public var data: Data
    public var content: (Data.Element) -> Content

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.group(data.flatMap { context.children(content($0)) }))
    }
}

extension ForEach where ID == Data.Element.ID, Data.Element: Identifiable {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data
        self.content = content
    }
}
