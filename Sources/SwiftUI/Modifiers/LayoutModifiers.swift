import WidgetHostProtocol

extension View {
    /// Space around the view: `length` points on `edges`, or the system's 16.
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View {
        let value = finite(length) ?? 16
        func on(_ edge: Edge.Set) -> Double { edges.contains(edge) ? value : 0 }
        return _modifier(
            .padding(top: on(.top), leading: on(.leading), bottom: on(.bottom), trailing: on(.trailing)))
    }

    public func padding(_ length: CGFloat) -> some View { padding(.all, length) }

    public func padding(_ insets: EdgeInsets) -> some View {
        _modifier(
            .padding(
                top: finite(insets.top) ?? 0, leading: finite(insets.leading) ?? 0, bottom: finite(insets.bottom) ?? 0,
                trailing: finite(insets.trailing) ?? 0))
    }

    /// A fixed size on either axis.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        _modifier(.frame(ArchiveFrame(width: finite(width), height: finite(height), alignment: alignment.name)))
    }

    /// Bounds on either axis; `maxWidth: .infinity` fills the space offered.
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View {
        _modifier(
            .frame(
                ArchiveFrame(
                    minWidth: finite(minWidth), maxWidth: maxWidth.flatMap { $0.isNaN ? nil : ArchiveLength(Double($0)) },
                    minHeight: finite(minHeight), maxHeight: maxHeight.flatMap { $0.isNaN ? nil : ArchiveLength(Double($0)) },
                    alignment: alignment.name)))
    }

    public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> some View {
        _modifier(.aspectRatio(finite(aspectRatio), contentMode: contentMode == .fit ? "fit" : "fill"))
    }

    public func scaledToFit() -> some View { aspectRatio(contentMode: .fit) }

    public func scaledToFill() -> some View { aspectRatio(contentMode: .fill) }
}
