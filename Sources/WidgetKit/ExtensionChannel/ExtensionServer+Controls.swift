import WidgetHostProtocol

/// Control widgets on the extension channel: `initialize` declares them (`controls`), and
/// `control/value` runs a control's `currentValue()` and answers with its template built from
/// the value. A provider that throws is a failed value, not a broken extension: the reply is
/// `{"error": …}` and the process lives on. The host's deadline (`limits.intent_timeout`)
/// bounds the whole request; past it the host kills the process.
extension ExtensionServer {
    static func validate(controls: [ControlDefinition]) throws(ConfigurationError) {
        var seen: Set<String> = []
        for control in controls {
            if control.kind.isEmpty {
                throw ConfigurationError(
                    "a control configuration has an empty kind; give every ControlWidget a unique kind string")
            }
            if !seen.insert(control.kind).inserted {
                throw ConfigurationError(
                    "the control kind \"\(control.kind)\" is declared twice; every ControlWidget in a WidgetBundle needs its own kind")
            }
        }
    }

    func answerControlValue(_ params: JSONValue?, reply: @escaping @Sendable (Answered) -> Void) {
        let request: ControlValueParams
        do {
            request = try (params ?? .null).decode(as: ControlValueParams.self)
        } catch {
            reply(.failure(.invalidParams("control/value needs kind and now: \(error)")))
            return
        }
        guard let control = controls.first(where: { $0.kind == request.kind }) else {
            let known = controls.map(\.kind).joined(separator: ", ")
            reply(
                .failure(
                    .invalidParams(
                        "unknown control kind \"\(request.kind)\""
                            + (known.isEmpty ? "; this extension declares no controls" : "; known controls are \(known)"))))
            return
        }
        Task(executorPreference: ChannelExecutor.preferred) {
            do {
                reply(Self.wire(.success(try await control.current())))
            } catch {
                reply(
                    Self.wire(
                        .success(ControlValueResult(error: "currentValue() threw: \(error)"))))
            }
        }
    }
}
