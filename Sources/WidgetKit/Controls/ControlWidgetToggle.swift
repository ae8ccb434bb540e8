import AppIntents
import SwiftUI
import WidgetHostProtocol

/// A control with two states. Its value provider says whether it is on; a tap runs its
/// action, a `SetValueIntent` whose `value` is set to the new state first
/// (`intent/perform` with `isOn`).
public struct ControlWidgetToggle<Label: View, ValueLabel: View, Action>: PrimitiveControlTemplate {
    let resolved: ResolvedControl

    init(isOn: Bool, action: IntentInvocation, label: (title: String?, systemImage: String?)) {
        resolved = ResolvedControl(
            style: .toggle, isOn: isOn, title: label.title, systemImage: label.systemImage, action: action)
    }
}

extension ControlWidgetToggle where Action: SetValueIntent, Action.ValueType == Bool {
    /// The value label is "On" or "Off".
    public init(isOn: Bool, action: Action, @ViewBuilder label: @escaping () -> Label)
    where ValueLabel == ControlWidgetToggleDefaultLabel {
        self.init(isOn: isOn, action: _IntentRuntime.invocation(action), label: ControlLabel.read(label()))
    }

    public init(
        isOn: Bool, action: Action, @ViewBuilder label: @escaping () -> Label,
        @ViewBuilder valueLabel: @escaping (Bool) -> ValueLabel
    ) {
        self.init(isOn: isOn, action: action, title: label(), valueLabel: valueLabel(isOn))
    }

    /// The title from `label`, the symbol from the value label first (it shows the state).
    private init(isOn: Bool, action: Action, title: some View, valueLabel: some View) {
        let label = ControlLabel.read(title)
        let value = ControlLabel.read(valueLabel)
        self.init(
            isOn: isOn, action: _IntentRuntime.invocation(action),
            label: (label.title ?? value.title, value.systemImage ?? label.systemImage))
    }
}

extension ControlWidgetToggle where Label == Text, Action: SetValueIntent, Action.ValueType == Bool {
    public init(
        _ titleKey: LocalizedStringKey, isOn: Bool, action: Action,
        @ViewBuilder valueLabel: @escaping (Bool) -> ValueLabel
    ) {
        self.init(isOn: isOn, action: action, title: Text(titleKey), valueLabel: valueLabel(isOn))
    }

    @_disfavoredOverload
    public init(
        _ titleResource: LocalizedStringResource, isOn: Bool, action: Action,
        @ViewBuilder valueLabel: @escaping (Bool) -> ValueLabel
    ) {
        self.init(isOn: isOn, action: action, title: Text(titleResource.defaultValue), valueLabel: valueLabel(isOn))
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(
        _ title: S, isOn: Bool, action: Action, @ViewBuilder valueLabel: @escaping (Bool) -> ValueLabel
    ) {
        self.init(isOn: isOn, action: action, title: Text(title), valueLabel: valueLabel(isOn))
    }
}

/// The value label of a `ControlWidgetToggle` made without one: "On" or "Off".
public struct ControlWidgetToggleDefaultLabel: _PrimitiveView {
    let isOn: Bool

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.text([ArchiveTextRun(.string(isOn ? "On" : "Off"))]))
    }
}
