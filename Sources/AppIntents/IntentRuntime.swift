import Foundation
import WidgetHostProtocol

/// What the SDK does with intents for the host: reads an intent type's schema from its
/// `@Parameter`s, writes an intent as an invocation (its type and values), rebuilds one from
/// an invocation and runs it. Not Apple API; WidgetKit and SwiftUI use it.
public enum _IntentRuntime {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registry: [String: any AppIntent.Type] = [:]

    /// The name an intent type travels by: its full Swift name (`WidgyShared.SelectWidgetIntent`),
    /// which this executable can look up again in a fresh process (`type(named:)`).
    public static func typeName<I: AppIntent>(_ type: I.Type) -> String {
        let name = String(reflecting: type)
        lock.withLock { registry[name] = type }
        return name
    }

    /// The intent type a name written by `typeName` stands for: one this process has seen, or
    /// else the type found by its mangled name (a tap may be the first request a new process
    /// gets). Only names of that shape are looked up; anything else is refused, not guessed.
    static func type(named name: String) -> (any AppIntent.Type)? {
        if let known = lock.withLock({ registry[name] }) { return known }
        let components = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.count < 512, components.count >= 2, components.count <= 5,
            components.allSatisfy({ part in
                !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                    && !(part.first?.isNumber ?? true)
            })
        else { return nil }
        let module = components[0]
        var prefixes = ["\(module.count)\(module)"]
        for part in components.dropFirst() {
            // Each nested name is a struct (V), class (C) or enum (O); try them all.
            prefixes = prefixes.flatMap { prefix in ["V", "C", "O"].map { "\(prefix)\(part.count)\(part)\($0)" } }
        }
        for mangled in prefixes {
            // The nominal-type marker follows each name, not the whole path: "11WidgyShared6OuterV5InnerV".
            if let found = _typeByName(mangled) as? any AppIntent.Type, String(reflecting: found) == name {
                lock.withLock { registry[name] = found }
                return found
            }
        }
        return nil
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
            // Reading it would stop the process: say which one instead.
            let schema = parameter._schema(name: name)
            if !schema.optional && parameter._currentValue() == nil {
                throw IntentValueError("\(I.self).\(name) (\(schema.title)) needs a value and has no default")
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
