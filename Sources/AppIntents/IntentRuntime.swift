import Foundation
import WidgetHostProtocol

/// What the SDK does with intents for the host: reads an intent type's schema from its
/// `@Parameter`s, writes an intent as an invocation (its type and values), rebuilds one from
/// an invocation and runs it. Not Apple API; WidgetKit and SwiftUI use it.
public enum _IntentRuntime {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registry: [String: any AppIntent.Type] = [:]

    /// The name an intent type travels by: its mangled Swift name, which this executable can
    /// look up again in a fresh process.
    public static func typeName<I: AppIntent>(_ type: I.Type) -> String {
        let name = _mangledTypeName(type) ?? String(reflecting: type)
        lock.withLock { registry[name] = type }
        return name
    }

    static func type(named name: String) -> (any AppIntent.Type)? {
        if let known = lock.withLock({ registry[name] }) { return known }
        // Only names this SDK wrote are expected; anything else is refused rather than guessed.
        guard name.count < 512, name.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return nil }
        return _typeByName(name) as? any AppIntent.Type
    }

    static func parameters(of intent: some AppIntent) -> [(name: String, parameter: any _AnyIntentParameter)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let label = child.label, label.hasPrefix("_"), let parameter = child.value as? any _AnyIntentParameter else {
                return nil
            }
            return (String(label.dropFirst()), parameter)
        }
    }

    /// What `initialize` declares for a configurable kind.
    public static func schema<I: AppIntent>(_ type: I.Type) -> IntentSchema {
        IntentSchema(
            type: typeName(type), title: I.title.defaultValue, description: I.description?.descriptionText.defaultValue,
            parameters: parameters(of: I()).map { $0.parameter._schema(name: $0.name) })
    }

    /// An intent as a button carries it.
    public static func invocation<I: AppIntent>(_ intent: I) -> IntentInvocation {
        var values: IntentValues = [:]
        for (name, parameter) in parameters(of: intent) {
            if let value = parameter._currentValue(), value != .null { values[name] = value }
        }
        return IntentInvocation(type: typeName(I.self), title: I.title.defaultValue, parameters: values)
    }

    /// A fresh intent with `values` set (entities resolved through their queries).
    public static func make<I: AppIntent>(_ type: I.Type, values: IntentValues) async throws -> I {
        let intent = I()
        for (name, parameter) in parameters(of: intent) {
            do {
                try await parameter._set(values[name])
            } catch {
                throw IntentValueError("\(I.self).\(name): \(error)")
            }
        }
        return intent
    }

    /// `intent/perform`: rebuild the intent, give a toggle's new state to its `value`, run
    /// `perform()`, and report the `WidgetCenter`/`ControlCenter` calls it made.
    public static func perform(_ params: IntentPerformParams) async -> IntentPerformResult {
        guard let type = type(named: params.intent.type) else {
            return IntentPerformResult(error: "this extension has no intent type \(params.intent.type)")
        }
        return await perform(type, params)
    }

    private static func perform<I: AppIntent>(_ type: I.Type, _ params: IntentPerformParams) async -> IntentPerformResult {
        let reloads = _IntentReloads()
        do {
            var values = params.intent.parameters
            if let isOn = params.isOn, I.self is any SetValueIntent.Type { values["value"] = .bool(isOn) }
            let intent = try await make(type, values: values)
            _ = try await _IntentReloads.$current.withValue(reloads) { try await intent.perform() }
            return reloads.result(error: nil)
        } catch {
            return reloads.result(error: "\(error)")
        }
    }

    /// `intent/options` for a parameter of a configuration intent.
    public static func options<I: AppIntent>(_ type: I.Type, parameter name: String) async throws -> IntentOptionsResult {
        guard let parameter = parameters(of: I()).first(where: { $0.name == name })?.parameter else {
            throw IntentValueError("\(I.self) has no parameter \"\(name)\"")
        }
        return try await parameter._options()
    }
}

extension IntentParameter {
    public func _options() async throws -> IntentOptionsResult {
        if let options = Value._options { return IntentOptionsResult(options: options) }
        return try await Value._queryOptions() ?? IntentOptionsResult(options: [])
    }
}


extension _IntentValue {
    public static func _queryOptions() async throws -> IntentOptionsResult? { nil }
}

extension AppEntity {
    public static func _queryOptions() async throws -> IntentOptionsResult? { try await defaultQuery._options() }
}

extension Optional where Wrapped: _IntentValue {
    public static func _queryOptions() async throws -> IntentOptionsResult? { try await Wrapped._queryOptions() }
}

/// The `WidgetCenter` and `ControlCenter` calls an intent makes while it runs: the host
/// honours them as the intent's reloads instead of the calls going to the control socket.
public final class _IntentReloads: @unchecked Sendable {
    @TaskLocal public static var current: _IntentReloads?
    private let lock = NSLock()
    private var kinds: [String] = []
    private var all = false
    private var controlKinds: [String] = []
    private var allControls = false

    public init() {}

    public func reloadTimelines(ofKind kind: String) { lock.withLock { kinds.append(kind) } }
    public func reloadAllTimelines() { lock.withLock { all = true } }
    public func reloadControls(ofKind kind: String) { lock.withLock { controlKinds.append(kind) } }
    public func reloadAllControls() { lock.withLock { allControls = true } }

    func result(error: String?) -> IntentPerformResult {
        lock.withLock {
            IntentPerformResult(
                error: error, reloadKinds: kinds.isEmpty ? nil : kinds, reloadAll: all ? true : nil,
                reloadControlKinds: controlKinds.isEmpty ? nil : controlKinds, reloadAllControls: allControls ? true : nil)
        }
    }
}
