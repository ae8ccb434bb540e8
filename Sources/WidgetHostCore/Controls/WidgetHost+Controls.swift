import Foundation
import WidgetHostProtocol

/// Control widgets (iOS 18): each control's value comes from its `ControlValueProvider`
/// (`control/value`, within `limits.intent_timeout`); a tap runs its action intent; an app's
/// `ControlCenter.shared.reloadControls(ofKind:)` asks the provider again. Control reloads
/// are not budgeted (ours: Apple documents no budget for controls).
extension WidgetHost {
    /// `controls`: every control (of one kind or app), with its provider's last answer.
    public func controlStatuses(kind: String? = nil, app: String? = nil) -> [ControlStatus] {
        controls.keys.sorted().compactMap { key in
            guard let state = controls[key], kind == nil || key.kind == kind, app == nil || state.app == app else {
                return nil
            }
            return ControlStatus(
                kind: key.kind, app: state.app, extension: key.extension, displayName: state.descriptor.displayName,
                style: state.descriptor.style, value: state.value, updatedAt: state.updatedAt,
                asking: state.asking != nil, lastError: state.lastError)
        }
    }

    /// The catalog changed: controls still offered keep what their providers said.
    mutating func rebuildControls() {
        var next: [ControlKey: ControlState] = [:]
        for ext in catalog.extensions {
            for descriptor in ext.controls {
                let key = ControlKey(extension: ext.id, kind: descriptor.kind)
                var state = controls[key] ?? ControlState(descriptor: descriptor, app: ext.app)
                state.descriptor = descriptor
                state.app = ext.app
                next[key] = state
            }
        }
        controls = next
    }

    mutating func reloadControls(kind: String?, app: String?, at now: Date) -> HostReply {
        var keys: [ControlKey]
        if let kind {
            switch catalog.resolveControl(kind: kind, app: app) {
            case .failure(let error): return .refused(error)
            case .success(let (ext, _)): keys = [ControlKey(extension: ext.id, kind: kind)]
            }
        } else {
            keys = controls.keys.sorted().filter { app == nil || controls[$0]?.app == app }
        }
        keys = keys.filter { controls[$0] != nil }
        for key in keys { askControlValue(key, at: now) }
        return .controlsReloaded(ReloadControlsResult(asked: keys.map(\.kind)))
    }

    /// Asks the control's provider for its value; while a request is out, once more after it.
    mutating func askControlValue(_ key: ControlKey, at now: Date) {
        guard var state = controls[key] else { return }
        if state.asking != nil {
            state.askAgain = true
        } else {
            state.asking = enqueue(
                .controlValue(ControlValueParams(kind: key.kind, now: now)), for: nil, on: key.extension, at: now)
        }
        controls[key] = state
    }

    mutating func controlAnswered(_ request: ExtensionRequest, _ outcome: ExtensionAnswer<ControlValueResult>, at now: Date) {
        guard let key = controls.keys.sorted().first(where: { controls[$0]?.asking == request.id }),
            var state = controls[key]
        else { return }
        state.asking = nil
        var outcome = outcome
        if case .answered(let value) = outcome, let error = value.error {
            outcome = .failed(error)
        }
        switch outcome {
        case .answered(let value):
            state.value = value
            state.updatedAt = now
            state.lastError = nil
            emit(.controlUpdated(extension: key.extension, control: key.kind, at: now, value: value, detail: nil))
        case .failed(let detail):
            state.lastError = detail
            emit(.controlUpdated(extension: key.extension, control: key.kind, at: now, value: nil, detail: detail))
        }
        let again = state.askAgain
        state.askAgain = false
        controls[key] = state
        if again { askControlValue(key, at: now) }
    }

    /// `tapControl`: runs the control's action; a toggle's action gets the new state.
    mutating func tapControl(kind: String, app: String?, at now: Date) -> HostReply {
        let ext: ExtensionDescriptor
        switch catalog.resolveControl(kind: kind, app: app) {
        case .failure(let error): return .refused(error)
        case .success(let (found, _)): ext = found
        }
        let key = ControlKey(extension: ext.id, kind: kind)
        guard let state = controls[key], let action = state.value?.action ?? state.descriptor.action else {
            return .refused(.controlHasNoAction(kind: kind))
        }
        let previous: Bool? = state.descriptor.style == .toggle ? (state.value?.isOn ?? false) : nil
        let toggledTo = previous.map { !$0 }
        let params = IntentPerformParams(
            intent: action, kind: kind, widgetId: nil, now: now, environment: requestEnvironment, isOn: toggledTo)
        let id = enqueue(.perform(params), for: nil, on: ext.id, at: now)
        clientWaits[id] = .tap(toggledTo: toggledTo, previous: previous)
        emit(
            .intentStarted(
                extension: ext.id, widgetId: nil, control: kind, at: now, intent: action.displayName, button: nil,
                isOn: toggledTo))
        return .answerLater(id)
    }
}
