import AppIntents
import WidgetHostProtocol

/// `intent/perform` and `intent/options`: App Intents run for the host. Both answer on a task
/// of their own, so an intent that awaits does not hold the stdin loop's thread.
extension ExtensionServer {
    /// `intent/perform`: rebuild the intent from its type and values, run `perform()`, and
    /// answer with what it asked `WidgetCenter` to reload. A `perform()` that throws is a
    /// failed intent (`{"error": …}`), not a protocol error: the extension lives on.
    func performIntent(_ params: JSONValue?, reply: @escaping @Sendable (Answered) -> Void) {
        let request: IntentPerformParams
        do {
            request = try (params ?? .null).decode(as: IntentPerformParams.self)
        } catch {
            reply(
                .failure(
                    .invalidParams(
                        "intent/perform needs params {intent: {type, parameters}, kind, widgetId?, now, isOn?}: \(error)")))
            return
        }
        Task(executorPreference: ChannelExecutor.preferred) {
            let result = await _IntentRuntime.perform(request)
            reply(Self.wire(.success(result)))
        }
    }

    /// `intent/options`: the choices for one parameter of a configurable kind's intent (an
    /// `AppEnum`'s cases, or an `EntityQuery`'s `suggestedEntities()` and `defaultResult()`).
    func intentOptions(_ params: JSONValue?, reply: @escaping @Sendable (Answered) -> Void) {
        let request: IntentOptionsParams
        do {
            request = try (params ?? .null).decode(as: IntentOptionsParams.self)
        } catch {
            reply(.failure(.invalidParams("intent/options needs params {kind, parameter}: \(error)")))
            return
        }
        guard let definition = widgets.first(where: { $0.kind == request.kind }) else {
            let offered = widgets.map { "\"\($0.kind)\"" }.joined(separator: ", ")
            reply(.failure(.invalidParams("unknown widget kind \"\(request.kind)\"; this extension offers \(offered)")))
            return
        }
        guard let schema = definition.intent, let options = definition.options else {
            reply(
                .failure(
                    .invalidParams(
                        "\(request.kind) is not configurable (a StaticConfiguration); only an AppIntentConfiguration's "
                            + "parameters have options")))
            return
        }
        guard schema.parameter(named: request.parameter) != nil else {
            let known = schema.parameters.map { "\"\($0.name)\"" }.joined(separator: ", ")
            reply(
                .failure(
                    .invalidParams(
                        "\(request.kind)'s intent \(schema.title) has no parameter \"\(request.parameter)\"; its parameters are \(known)")))
            return
        }
        Task(executorPreference: ChannelExecutor.preferred) {
            do {
                reply(Self.wire(.success(try await options(request.parameter))))
            } catch {
                reply(
                    .failure(
                        JSONRPCError(
                            code: JSONRPCError.internalErrorCode,
                            message: "Internal error: the options of \(request.kind).\(request.parameter) failed: \(error)")))
            }
        }
    }
}
