import SwiftUI
import WidgetHostProtocol

/// What a control looks like and does: a `ControlWidgetButton` or a `ControlWidgetToggle`,
/// possibly with modifiers. The SDK reads it into what `control/value` answers: the style,
/// a toggle's state, the label's title and symbol, and the action's intent. (It refines
/// `SendableMetatype`, as `View` does here: templates are built on the thread that answers.)
public protocol ControlWidgetTemplate: SendableMetatype {
    associatedtype Body: ControlWidgetTemplate
    @ControlWidgetTemplateBuilder var body: Body { get }
}

extension Never: ControlWidgetTemplate {}

/// The one template a control's content closure returns.
@resultBuilder
public enum ControlWidgetTemplateBuilder {
    public static func buildExpression<Content: ControlWidgetTemplate>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: ControlWidgetTemplate>(_ content: Content) -> Content { content }
    public static func buildEither<First: ControlWidgetTemplate, Second: ControlWidgetTemplate>(
        first content: First
    ) -> _EitherControlTemplate<First, Second> {
        _EitherControlTemplate(resolved: content.resolvedControl)
    }
    public static func buildEither<First: ControlWidgetTemplate, Second: ControlWidgetTemplate>(
        second content: Second
    ) -> _EitherControlTemplate<First, Second> {
        _EitherControlTemplate(resolved: content.resolvedControl)
    }
}

/// One branch of an `if`/`else` in a content closure.
public struct _EitherControlTemplate<First: ControlWidgetTemplate, Second: ControlWidgetTemplate>: PrimitiveControlTemplate {
    let resolved: ResolvedControl
}

/// A control as the host sees it: what a template resolves to.
struct ResolvedControl: Sendable, Hashable {
    var style: ControlDescriptor.Style
    var isOn: Bool?
    var title: String?
    var systemImage: String?
    var action: IntentInvocation?

    var value: ControlValueResult {
        ControlValueResult(isOn: isOn, title: title, systemImage: systemImage, action: action)
    }
}

/// A template the SDK reads directly; every other one is read through its body.
protocol PrimitiveControlTemplate: ControlWidgetTemplate where Body == Never {
    var resolved: ResolvedControl { get }
}

extension PrimitiveControlTemplate {
    public var body: Never {
        fatalError("\(Self.self) is a primitive control template; it has no body")
    }
}

extension ControlWidgetTemplate {
    var resolvedControl: ResolvedControl {
        if let primitive = self as? any PrimitiveControlTemplate { return primitive.resolved }
        return body.resolvedControl
    }

    /// The control's tint; accepted, not shown by the host.
    public func tint(_ tint: Color?) -> some ControlWidgetTemplate {
        _ModifiedControlTemplate(resolved: resolvedControl)
    }

    /// The VoiceOver hint for the action; accepted, not shown by the host.
    public func controlWidgetActionHint(_ hint: LocalizedStringKey) -> some ControlWidgetTemplate {
        _ModifiedControlTemplate(resolved: resolvedControl)
    }
}

/// A template with a modifier the host does not show applied.
public struct _ModifiedControlTemplate: PrimitiveControlTemplate {
    let resolved: ResolvedControl
}

/// What a control's label shows: the first text and the first SF Symbol in its archive.
enum ControlLabel {
    static func read<V: View>(_ view: V) -> (title: String?, systemImage: String?) {
        let node = _ViewArchiver.archive(view, environment: EnvironmentValues())
        return (firstText(in: node), firstSymbol(in: node))
    }

    static func firstText(in node: ViewNode) -> String? {
        if case .text(let runs) = node.content {
            let text = runs.compactMap { run in
                if case .string(let string) = run.content { string } else { nil }
            }.joined().trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { return text }
        }
        return node.childNodes.lazy.compactMap(firstText(in:)).first
    }

    static func firstSymbol(in node: ViewNode) -> String? {
        switch node.content {
        case .image(let image):
            if case .system(let name) = image.source { return name }
        case .text(let runs):
            for run in runs { if case .symbol(let name) = run.content { return name } }
        default:
            break
        }
        return node.childNodes.lazy.compactMap(firstSymbol(in:)).first
    }
}
