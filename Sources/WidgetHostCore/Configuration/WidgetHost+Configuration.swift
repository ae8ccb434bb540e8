import Foundation
import WidgetHostProtocol

/// Configurable widgets: a configuration checked against the kind's intent schema, entities
/// vouched for by the extension's query, the user's edits as exempt reloads (origin
/// `userInteraction`, Apple), and a parameter's choices.
extension WidgetHost {
    /// `configureWidget`: the values given replace those of the same names (null removes one).
    mutating func configureWidget(_ id: WidgetID, _ changes: IntentValues, at now: Date) -> HostReply {
        guard let record = records[id] else { return .refused(.unknownWidget(id)) }
        guard let ext = catalog.descriptor(of: record.info.extension),
            let descriptor = ext.widgets.first(where: { $0.kind == record.info.kind })
        else {
            return .refused(.unknownKind(kind: record.info.kind, known: catalog.allKinds))
        }
        guard let schema = descriptor.intent else { return .refused(.notConfigurable(kind: record.info.kind)) }
        let values: IntentValues
        switch ConfigurationValidation.resolve(changes, over: record.info.configuration ?? [:], schema: schema) {
        case .failure(let error): return .refused(.invalidConfiguration(kind: record.info.kind, error))
        case .success(let resolved): values = resolved
        }
        // Only the entities the edit names need the query's word; the others were checked when set.
        let checks = ConfigurationValidation.entityChecks(values, schema: schema).filter { changes[$0] != nil }
        if !checks.isEmpty {
            return checkEntities(.configure(id, values), kind: record.info.kind, ext: ext.id, parameters: checks, at: now)
        }
        return completeConfigure(id, values, at: now)
    }

    mutating func completeConfigure(_ id: WidgetID, _ values: IntentValues, at now: Date) -> HostReply {
        guard var record = records[id] else { return .refused(.unknownWidget(id)) }
        record.info.configuration = values
        records[id] = record
        step.changed.insert(id)
        let outcome = requestReload(id, cause: .requested, exemption: .userInteraction, at: now)
        return .configured(ConfigureWidgetResult(widget: records[id]?.info ?? record.info, reload: outcome))
    }

    /// Asks the extension's query for the first entity parameter's choices; the command
    /// finishes (or is refused) when the query has answered for every one.
    mutating func checkEntities(
        _ command: PendingConfiguration.Command, kind: String, ext: String, parameters: [String], at now: Date
    ) -> HostReply {
        let pending = PendingConfiguration(command: command, kind: kind, extension: ext, remaining: parameters)
        let id = enqueue(
            .options(IntentOptionsParams(kind: kind, parameter: parameters[0])), for: nil, on: ext, at: now)
        clientWaits[id] = .entityCheck(pending, token: id)
        return .answerLater(id)
    }

    /// `options`: an enum's cases at once, an entity's choices from the extension's query.
    mutating func requestOptions(kind: String, parameter: String, app: String?, at now: Date) -> HostReply {
        let ext: ExtensionDescriptor
        let descriptor: WidgetDescriptor
        switch catalog.resolve(kind: kind, app: app) {
        case .failure(let error): return .refused(error)
        case .success(let found): (ext, descriptor) = found
        }
        guard let schema = descriptor.intent else { return .refused(.notConfigurable(kind: kind)) }
        guard let found = schema.parameter(named: parameter) else {
            return .refused(.unknownParameter(kind: kind, parameter: parameter, accepted: schema.parameters.map(\.name)))
        }
        if let options = found.options {
            return .options(IntentOptionsResult(options: options))
        }
        guard found.type == .entity else { return .options(IntentOptionsResult(options: [])) }
        let id = enqueue(.options(IntentOptionsParams(kind: kind, parameter: parameter)), for: nil, on: ext.id, at: now)
        clientWaits[id] = .options
        return .answerLater(id)
    }

    /// The query answered (or could not): pass the choices on, or go on checking a configuration.
    mutating func optionsAnswered(_ request: ExtensionRequest, _ outcome: ExtensionAnswer<IntentOptionsResult>, at now: Date) {
        guard let wait = clientWaits.removeValue(forKey: request.id) else { return }
        switch wait {
        case .options:
            switch outcome {
            case .answered(let result): answer(request.id, .options(result))
            case .failed(let detail):
                guard case .options(let params) = request.call else { return }
                answer(
                    request.id,
                    .refused(.invalidConfiguration(kind: params.kind, .queryFailed(params.parameter, detail: detail))))
            }
        case .entityCheck(var pending, let token):
            let name = pending.remaining.removeFirst()
            let options: [IntentOption]
            switch outcome {
            case .failed(let detail):
                answer(token, .refused(.invalidConfiguration(kind: pending.kind, .queryFailed(name, detail: detail))))
                return
            case .answered(let result): options = result.options
            }
            let schema = catalog.descriptor(of: pending.extension)?.widgets.first { $0.kind == pending.kind }?.intent
            if let parameter = schema?.parameter(named: name),
                let error = ConfigurationValidation.check(pending.values, parameter: parameter, options: options)
            {
                answer(token, .refused(.invalidConfiguration(kind: pending.kind, error)))
                return
            }
            if let next = pending.remaining.first {
                let id = enqueue(
                    .options(IntentOptionsParams(kind: pending.kind, parameter: next)), for: nil, on: pending.extension,
                    at: now)
                clientWaits[id] = .entityCheck(pending, token: token)
                return
            }
            switch pending.command {
            case .add(let add, let values):
                switch catalog.resolve(kind: add.kind, app: add.app) {
                case .failure(let error): answer(token, .refused(error))
                case .success(let (ext, _)): answer(token, completeAdd(add, ext: ext, configuration: values, at: now))
                }
            case .configure(let id, let values):
                answer(token, completeConfigure(id, values, at: now))
            }
        case .tap:
            return
        }
    }

    mutating func answer(_ token: RequestID, _ reply: HostReply) {
        step.effects.append(.answer(token, reply))
    }
}
