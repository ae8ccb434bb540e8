import WidgetHostProtocol

extension View {
    /// Space around the view: `length` points on `edges`, or the system's 16.
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View {
        let value = Double(length ?? 16)
        func on(_ edge: Edge.Set) -> Double { edges.contains(edge) ? value : 0 }
        return _modifier(
            .padding(top: on(.top), leading: on(.leading), bottom: on(.bottom), trailing: on(.trailing)))
    }

    public func padding(_ length: CGFloat) -> some View { padding(.all, length) }

    public func padding(_ insets: EdgeInsets) -> some View {
        _modifier(
            .padding(
                top: Double(insets.top), leading: Double(insets.leading), bottom: Double(insets.bottom),
                trailing: Double(insets.trailing)))
    }

    /// A fixed size on either axis.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        _modifier(.frame(ArchiveFrame(width: width.map(Double.init), height: height.map(Double.init), alignment: alignment.name)))
    }

    /// Bounds on either axis; `maxWidth: .infinity` fills the space offered.
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View {
        _modifier(
            .frame(
                ArchiveFrame(
                    minWidth: minWidth.map(Double.init), maxWidth: maxWidth.map { ArchiveLength(Double($0)) },
                    minHeight: minHeight.map(Double.init), maxHeight: maxHeight.map { ArchiveLength(Double($0)) },
                    alignment: alignment.name)))
    }

    public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> some View {
        _modifier(.aspectRatio(aspectRatio.map(Double.init), contentMode: contentMode == .fit ? "fit" : "fill"))
    }

    public func scaledToFit() -> some View { aspectRatio(contentMode: .fit) }

    public func scaledToFill() -> some View { aspectRatio(contentMode: .fill) }
}
