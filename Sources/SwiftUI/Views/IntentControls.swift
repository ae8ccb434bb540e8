import AppIntents
import WidgetHostProtocol

/// `Button(intent:)`: in a widget, a tap runs its intent in the extension (`intent/perform`)
/// and the tapped widget reloads at once. The archive carries the intent's type and the
/// values it was built with; the SDK numbers buttons and toggles `b1`, `b2`, … in reading order.
public struct Button<Label: View>: _PrimitiveView {
    let intent: IntentInvocation
    let label: Label

    public init(intent: some AppIntent, @ViewBuilder label: () -> Label) {
        self.intent = _IntentRuntime.invocation(intent)
        self.label = label()
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.button(ArchiveIntentControl(id: "", intent: intent, label: context.archive(label))))
    }
}

extension Button where Label == Text {
    public init(_ titleKey: LocalizedStringKey, intent: some AppIntent) {
        self.init(intent: intent) { Text(titleKey) }
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, intent: some AppIntent) {
        self.init(intent: intent) { Text(title) }
    }
}

extension Button where Label == SwiftUI.Label<Text, Image> {
    public init(_ titleKey: LocalizedStringKey, systemImage: String, intent: some AppIntent) {
        self.init(intent: intent) { SwiftUI.Label(titleKey, systemImage: systemImage) }
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage: String, intent: some AppIntent) {
        self.init(intent: intent) { SwiftUI.Label(title, systemImage: systemImage) }
    }

    public init(_ titleKey: LocalizedStringKey, image: String, intent: some AppIntent) {
        self.init(intent: intent) { SwiftUI.Label(titleKey, image: image) }
    }
}

/// `Toggle(isOn:intent:)`: shows `isOn` as the entry has it; a tap flips it at once, runs the
/// intent (a `SetValueIntent` gets the new state in `value`), and the host rolls the toggle back
/// if the intent fails.
public struct Toggle<Label: View>: _PrimitiveView {
    let isOn: Bool
    let intent: IntentInvocation
    let label: Label

    public init<I: AppIntent>(isOn: Bool, intent: I, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        self.intent = _IntentRuntime.invocation(intent)
        self.label = label()
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.toggle(ArchiveIntentControl(id: "", intent: intent, isOn: isOn, label: context.archive(label))))
    }
}

extension Toggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Bool, intent: some AppIntent) {
        self.init(isOn: isOn, intent: intent) { Text(titleKey) }
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Bool, intent: some AppIntent) {
        self.init(isOn: isOn, intent: intent) { Text(title) }
    }
}

/// Gives every button and toggle of an archive its id, `b1`, `b2`, …, in the order the host
/// reads them (`ViewNode.intentControls`: a node, then its children, then its modifiers' views),
/// so that `widgethost tap w1 b2` names the second one the reader sees.
enum IntentControlNumbering {
    static func number(_ node: inout ViewNode) {
        var next = 1
        number(&node, &next)
    }

    private static func number(_ node: inout ViewNode, _ next: inout Int) {
        switch node.content {
        case .button(var control):
            control.id = "b\(next)"
            next += 1
            number(&control.label, &next)
            node.content = .button(control)
        case .toggle(var control):
            control.id = "b\(next)"
            next += 1
            number(&control.label, &next)
            node.content = .toggle(control)
        case .vstack(let alignment, let spacing, var children):
            numberAll(&children, &next)
            node.content = .vstack(alignment: alignment, spacing: spacing, children: children)
        case .hstack(let alignment, let spacing, var children):
            numberAll(&children, &next)
            node.content = .hstack(alignment: alignment, spacing: spacing, children: children)
        case .zstack(let alignment, var children):
            numberAll(&children, &next)
            node.content = .zstack(alignment: alignment, children: children)
        case .group(var children):
            numberAll(&children, &next)
            node.content = .group(children)
        case .viewThatFits(let axes, var children):
            numberAll(&children, &next)
            node.content = .viewThatFits(axes: axes, children: children)
        case .label(var title, var icon, let style):
            number(&title, &next)
            number(&icon, &next)
            node.content = .label(title: title, icon: icon, style: style)
        case .gauge(var gauge):
            numberOptional(&gauge.label, &next)
            numberOptional(&gauge.currentValueLabel, &next)
            numberOptional(&gauge.minimumValueLabel, &next)
            numberOptional(&gauge.maximumValueLabel, &next)
            node.content = .gauge(gauge)
        case .progress(var progress):
            numberOptional(&progress.label, &next)
            numberOptional(&progress.currentValueLabel, &next)
            node.content = .progress(progress)
        case .link(let url, var label):
            number(&label, &next)
            node.content = .link(url: url, label: label)
        case .empty, .text, .spacer, .divider, .image, .shape, .fill, .accessoryWidgetBackground, .unknown:
            break
        }
        for index in node.modifiers.indices {
            switch node.modifiers[index] {
            case .background(let style, let shape, var view?, let alignment):
                number(&view, &next)
                node.modifiers[index] = .background(style: style, shape: shape, view: view, alignment: alignment)
            case .overlay(var view, let alignment):
                number(&view, &next)
                node.modifiers[index] = .overlay(view: view, alignment: alignment)
            case .containerBackground(let style, var view?, let alignment):
                number(&view, &next)
                node.modifiers[index] = .containerBackground(style: style, view: view, alignment: alignment)
            default:
                break
            }
        }
    }

    private static func numberAll(_ nodes: inout [ViewNode], _ next: inout Int) {
        for index in nodes.indices { number(&nodes[index], &next) }
    }

    private static func numberOptional(_ node: inout ViewNode?, _ next: inout Int) {
        guard var inner = node else { return }
        number(&inner, &next)
        node = inner
    }
}
