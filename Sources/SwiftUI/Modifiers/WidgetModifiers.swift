import WidgetHostProtocol

/// Where a container background goes; WidgetKit adds `.widget`.
public struct ContainerBackgroundPlacement: Sendable, Hashable {
    let name: String
    /// For WidgetKit's placements.
    public init(_name name: String) { self.name = name }
}

/// Why content is redacted: `.placeholder` while the widget loads, `.privacy` when locked.
public struct RedactionReasons: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let placeholder = RedactionReasons(rawValue: 1)
    public static let privacy = RedactionReasons(rawValue: 2)
    public static let invalidated = RedactionReasons(rawValue: 4)

    var name: String? {
        if contains(.placeholder) { return "placeholder" }
        if contains(.privacy) { return "privacy" }
        if contains(.invalidated) { return "invalidated" }
        return nil
    }
}

/// How a changed text animates; recorded, with no effect on a still frame.
public struct ContentTransition: Sendable, Hashable {
    let name: String
    public static let identity = ContentTransition(name: "identity")
    public static let opacity = ContentTransition(name: "opacity")
    public static let interpolate = ContentTransition(name: "interpolate")
    public static func numericText(countsDown: Bool = false) -> ContentTransition { ContentTransition(name: "numericText") }
    public static func numericText(value: Double) -> ContentTransition { ContentTransition(name: "numericText") }
}

extension View {
    /// The widget's background, which the system removes where it draws its own (StandBy,
    /// the lock screen, accented mode).
    public func containerBackground<S: ShapeStyle>(_ style: S, for container: ContainerBackgroundPlacement) -> some View {
        _modifier(.containerBackground(style: style._archivedStyle, view: nil, alignment: "center"))
    }

    public func containerBackground<V: View>(
        for container: ContainerBackgroundPlacement, alignment: Alignment = .center, @ViewBuilder content: () -> V
    ) -> some View {
        let view = content()
        return _modifier { .containerBackground(style: nil, view: $0.archive(view), alignment: alignment.name) }
    }

    /// Hidden (redacted) when the device is locked or in privacy mode.
    public func privacySensitive(_ sensitive: Bool = true) -> some View { _modifier(.privacySensitive(sensitive)) }

    /// Drawn as placeholder shapes: `.redacted(reason: .placeholder)`.
    public func redacted(reason: RedactionReasons) -> some View {
        _ModifiedView(content: self, environment: { $0.redactionReasons.formUnion(reason) }, modifier: { _ in .redacted(reason.name) })
    }

    public func unredacted() -> some View {
        _ModifiedView(content: self, environment: { $0.redactionReasons = [] }, modifier: { _ in .redacted(nil) })
    }

    /// Dimmed while an App Intent the widget started is running.
    public func invalidatableContent(_ invalidatable: Bool = true) -> some View {
        _modifier(.invalidatableContent(invalidatable))
    }

    public func contentTransition(_ transition: ContentTransition) -> some View {
        _modifier(.contentTransition(transition.name))
    }
}
