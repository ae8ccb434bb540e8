import WidgetHostProtocol

/// A title with an icon. `.labelStyle(.titleOnly)` and friends pick what shows.
public struct Label<Title: View, Icon: View>: _PrimitiveView {
    let title: Title
    let icon: Icon

    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(
            .label(
                title: context.archive(title), icon: context.archive(icon),
                style: context.environment[LabelStyleKey.self].name))
    }
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(systemName: name) })
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }

    public init(_ titleKey: LocalizedStringKey, image name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(name) })
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, image name: String) {
        self.init(title: { Text(title) }, icon: { Image(name) })
    }
}

/// `titleAndIcon`, `titleOnly`, `iconOnly`.
public protocol LabelStyle: Sendable {
    var _name: String { get }
}

public struct DefaultLabelStyle: LabelStyle { public init() {}; public var _name: String { "titleAndIcon" } }
public struct TitleAndIconLabelStyle: LabelStyle { public init() {}; public var _name: String { "titleAndIcon" } }
public struct TitleOnlyLabelStyle: LabelStyle { public init() {}; public var _name: String { "titleOnly" } }
public struct IconOnlyLabelStyle: LabelStyle { public init() {}; public var _name: String { "iconOnly" } }

extension LabelStyle where Self == DefaultLabelStyle { public static var automatic: DefaultLabelStyle { .init() } }
extension LabelStyle where Self == TitleAndIconLabelStyle { public static var titleAndIcon: TitleAndIconLabelStyle { .init() } }
extension LabelStyle where Self == TitleOnlyLabelStyle { public static var titleOnly: TitleOnlyLabelStyle { .init() } }
extension LabelStyle where Self == IconOnlyLabelStyle { public static var iconOnly: IconOnlyLabelStyle { .init() } }

struct LabelStyleKey: EnvironmentKey {
    struct Name: Sendable { let name: String }
    static let defaultValue = Name(name: "titleAndIcon")
}

extension View {
    public func labelStyle<S: LabelStyle>(_ style: S) -> some View {
        _environment { $0[LabelStyleKey.self] = LabelStyleKey.Name(name: style._name) }
    }
}

/// A control that opens a URL in the containing app. (Only medium and larger widgets pass
/// a tap on a Link; a small widget opens its `widgetURL`.)
public struct Link<Label: View>: _PrimitiveView {
    let destination: URL
    let label: Label

    public init(destination: URL, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.link(url: destination.absoluteString, label: context.archive(label)))
    }
}

extension Link where Label == Text {
    public init(_ titleKey: LocalizedStringKey, destination: URL) {
        self.init(destination: destination, label: { Text(titleKey) })
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, destination: URL) {
        self.init(destination: destination, label: { Text(title) })
    }
}
