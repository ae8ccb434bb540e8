import AppIntents
import SwiftUI
import WidgetHostProtocol

/// A control that runs its action when tapped; it has no state. A tap is `intent/perform`
/// with the action's intent (`widgethost control tap KIND`).
public struct ControlWidgetButton<Label: View, ActionLabel: View, Action>: PrimitiveControlTemplate {
    let resolved: ResolvedControl

    init(action: IntentInvocation, label: (title: String?, systemImage: String?)) {
        resolved = ResolvedControl(
            style: .button, isOn: nil, title: label.title, systemImage: label.systemImage, action: action)
    }
}

extension ControlWidgetButton where Action: AppIntent {
    public init(action: Action, @ViewBuilder label: @escaping () -> Label)
    where ActionLabel == ControlWidgetButtonDefaultActionLabel {
        self.init(action: _IntentRuntime.invocation(action), label: ControlLabel.read(label()))
    }

    /// `actionLabel` is what shows while the action runs; the host shows no such state.
    public init(
        action: Action, @ViewBuilder label: @escaping () -> Label,
        @ViewBuilder actionLabel: @escaping (Bool) -> ActionLabel
    ) {
        self.init(action: _IntentRuntime.invocation(action), label: ControlLabel.read(label()))
    }
}

extension ControlWidgetButton where Label == Text, Action: AppIntent {
    public init(_ titleKey: LocalizedStringKey, action: Action, @ViewBuilder actionLabel: @escaping (Bool) -> ActionLabel) {
        self.init(title: Text(titleKey), action: action, actionLabel: actionLabel)
    }

    @_disfavoredOverload
    public init(
        _ titleResource: LocalizedStringResource, action: Action, @ViewBuilder actionLabel: @escaping (Bool) -> ActionLabel
    ) {
        self.init(title: Text(titleResource.defaultValue), action: action, actionLabel: actionLabel)
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, action: Action, @ViewBuilder actionLabel: @escaping (Bool) -> ActionLabel) {
        self.init(title: Text(title), action: action, actionLabel: actionLabel)
    }

    private init(title: Text, action: Action, actionLabel: (Bool) -> ActionLabel) {
        let symbol = ControlLabel.read(actionLabel(false)).systemImage
        self.init(
            action: _IntentRuntime.invocation(action), label: (ControlLabel.read(title).title, symbol))
    }
}

/// What a `ControlWidgetButton` shows while its action runs when none is given.
public struct ControlWidgetButtonDefaultActionLabel: _PrimitiveView {
    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.empty) }
}
