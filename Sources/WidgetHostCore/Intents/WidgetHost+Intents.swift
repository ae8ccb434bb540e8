import Foundation
import WidgetHostProtocol

/// Taps: a `Button(intent:)` or `Toggle(isOn:intent:)` runs its intent in the extension
/// (`intent/perform`, within `limits.intent_timeout`, under the same memory limit and kill
/// rules as any request). On success the tapped widget gets one immediate exempt reload
/// (origin `appIntent`, Apple); other widgets reload only through the `WidgetCenter` calls
/// the intent made. A toggle shows its new state at once and rolls back if the intent fails.
extension WidgetHost {
    enum IntentEnd {
        case succeeded(IntentPerformResult)
        case failed(IntentOutcome, String)
    }

    mutating func tap(_ request: TapRequest, at now: Date) -> HostReply {
        guard var record = records[request.widget] else { return .refused(.unknownWidget(request.widget)) }
        if record.interaction?.isRunning == true { return .refused(.intentRunning(request.widget)) }
        let intent: IntentInvocation
        var button: String?
        var previous: Bool?
        if let given = request.intent, request.button == nil {
            intent = given
        } else {
            let found = record.currentEntry(at: now).entry?.view?.root.intentControls ?? []
            guard let match = TapTarget.find(request.button, in: found) else {
                return .refused(
                    .unknownButton(request.widget, button: request.button ?? "", known: found.map { TapTarget.name(of: $0.control) }))
            }
            intent = match.intent
            button = match.id
            previous = match.isOn
        }
        let toggledTo = previous.map { !$0 }
        let params = IntentPerformParams(
            intent: intent, kind: record.info.kind, widgetId: request.widget.rawValue, now: now,
            environment: requestEnvironment, isOn: toggledTo)
        let id = enqueue(.perform(params), for: request.widget, on: record.info.extension, at: now)
        record.interaction = RunningIntent(request: id, intent: intent, button: button, startedAt: now, toggledTo: toggledTo)
        records[request.widget] = record
        step.changed.insert(request.widget)
        clientWaits[id] = .tap(toggledTo: toggledTo, previous: previous)
        emit(
            .intentStarted(
                extension: record.info.extension, widgetId: request.widget.rawValue, control: nil, at: now,
                intent: intent.displayName, button: button, isOn: toggledTo))
        return .answerLater(id)
    }

    /// An intent ended: announce it, reload what it asks for, answer the tap.
    mutating func intentEnded(_ request: ExtensionRequest, _ end: IntentEnd, sentAt: Date, at now: Date) {
        guard case .perform(let params) = request.call else { return }
        let durationMs = (now.timeIntervalSince(sentAt) * 1000).rounded()
        let control = request.widget == nil ? params.kind : nil
        let (outcome, detail): (IntentOutcome, String?) =
            switch end {
            case .succeeded: (.succeeded, nil)
            case .failed(let outcome, let detail): (outcome, detail)
            }
        emit(
            .intentFinished(
                extension: request.extension, widgetId: request.widget?.rawValue, control: control, at: now,
                intent: params.intent.displayName, outcome: outcome, durationMs: durationMs, detail: detail))

        var toggledTo: Bool?
        var previous: Bool?
        if case .tap(let to, let from)? = clientWaits.removeValue(forKey: request.id) {
            toggledTo = to
            previous = from
        }
        var reload: WidgetReloadOutcome?
        if let widget = request.widget, var record = records[widget] {
            // A success keeps showing the tap until its reload lands; a failure rolls it back now.
            if case .succeeded = end, record.interaction?.request == request.id {
                record.interaction?.endedAt = now
            } else if record.interaction?.request == request.id {
                record.interaction = nil
            }
            records[widget] = record
            step.changed.insert(widget)
            if case .succeeded = end {
                reload = requestReload(widget, cause: .requested, exemption: .appIntent, at: now)
            } else {
                let rollback = toggledTo == nil ? "" : "; the toggle is back to \(previous == true ? "on" : "off")"
                addDiagnostic(
                    .init(
                        code: "intentFailed", severity: .error,
                        message: "\(params.intent.displayName) \(outcome.rawValue): \(detail ?? "")\(rollback)"),
                    to: widget, at: now)
            }
        }
        if let control, let ext = catalog.descriptor(of: request.extension) {
            let key = ControlKey(extension: ext.id, kind: control)
            if case .succeeded = end, let toggledTo, var state = controls[key] {
                var value = state.value ?? ControlValueResult()
                value.isOn = toggledTo
                state.value = value
                state.updatedAt = now
                controls[key] = state
            }
            // Apple reloads a control after its action ran.
            if case .succeeded = end { askControlValue(key, at: now) }
        }
        if case .succeeded(let result) = end, let ext = catalog.descriptor(of: request.extension) {
            honourReloads(result, ext: ext, tapped: request.widget, at: now)
        }
        let succeeded = outcome == .succeeded
        answer(
            request.id,
            .tapped(
                TapResult(
                    intent: params.intent, outcome: outcome, durationMs: durationMs, detail: detail, reload: reload,
                    isOn: succeeded ? toggledTo : previous)))
    }

    /// The `WidgetCenter` and `ControlCenter` calls an intent made, as exempt reloads of its
    /// extension's widgets; the tapped widget's own reload already covers it.
    private mutating func honourReloads(
        _ result: IntentPerformResult, ext: ExtensionDescriptor, tapped: WidgetID?, at now: Date
    ) {
        let kinds = Set(result.reloadKinds ?? [])
        let targets = records.values.filter { record in
            record.info.extension == ext.id && record.id != tapped
                && (result.reloadAll == true || kinds.contains(record.info.kind))
        }.map(\.id)
        for id in targets { _ = requestReload(id, cause: .requested, exemption: .appIntent, at: now) }
        let controlKinds = result.reloadAllControls == true ? ext.controls.map(\.kind) : (result.reloadControlKinds ?? [])
        for kind in Set(controlKinds).sorted() where ext.controls.contains(where: { $0.kind == kind }) {
            askControlValue(ControlKey(extension: ext.id, kind: kind), at: now)
        }
    }
}

/// Which button a tap means: its id (`b2`), its intent's type or title, or its label's text;
/// with no name, the only one there is.
enum TapTarget {
    static func find(_ name: String?, in found: [(kind: String, control: ArchiveIntentControl)]) -> ArchiveIntentControl? {
        guard let name else { return found.count == 1 ? found[0].control : nil }
        let controls = found.map(\.control)
        return controls.first { $0.id == name }
            ?? controls.first { $0.intent.type == name || $0.intent.title == name }
            ?? controls.first { labelText(of: $0.label).caseInsensitiveCompare(name) == .orderedSame }
    }

    /// How an error lists a button: `b1 (Done: Mark done)`.
    static func name(of control: ArchiveIntentControl) -> String {
        let text = labelText(of: control.label)
        return "\(control.id) (\(control.intent.displayName)\(text.isEmpty ? "" : ": \(text)"))"
    }

    static func labelText(of node: ViewNode) -> String {
        var parts: [String] = []
        if case .text(let runs) = node.content {
            parts.append(
                runs.compactMap { run in
                    if case .string(let text) = run.content { text } else { nil }
                }.joined())
        }
        parts += node.childNodes.map(labelText(of:)).filter { !$0.isEmpty }
        return parts.joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}
