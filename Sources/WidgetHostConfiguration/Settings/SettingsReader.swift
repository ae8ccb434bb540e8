import Foundation

/// What a key's reader needs besides its value.
struct SettingsContext {
    let values: ValueReader
    /// Names the tables in messages: `""` in widgethost.toml, `"host."` in a scenario.
    let prefix: String
    /// Relative paths are resolved against it.
    let currentDirectory: String
    /// Resolves `control.admin_groups` names.
    let groupID: (String) -> UInt32?
}

/// One key of a settings table and how it sets `Target`.
struct SettingsField<Target>: Sendable {
    typealias Apply = @Sendable (inout Target, ConfigValue, String, SettingsContext) throws(ConfigError) -> Void

    var name: String
    var apply: Apply

    init(_ name: String, apply: @escaping Apply) {
        self.name = name
        self.apply = apply
    }

    /// The same key setting a part of a larger value (`\.host` of `DaemonConfiguration`).
    func lifted<Outer>(_ part: any WritableKeyPath<Outer, Target> & Sendable) -> SettingsField<Outer> {
        let apply = self.apply
        return SettingsField<Outer>(name) { outer, value, key, context throws(ConfigError) in
            try apply(&outer[keyPath: part], value, key, context)
        }
    }
}

/// One table (`[budget]`) and its keys, in the order `config/widgethost.toml` lists them.
struct SettingsSection<Target>: Sendable {
    var name: String
    var fields: [SettingsField<Target>]
}

/// Maps a table of sections onto `Target`, checking every key and naming the line of anything
/// wrong. Keys are read in the order the file defines them, so the first error in the file is
/// the one reported.
struct SettingsReader<Target> {
    let sections: [SettingsSection<Target>]
    let context: SettingsContext

    /// Applies every key of `root`; returns the values written, by `section.key`, for
    /// checks between keys.
    func read(_ root: ConfigTable, into target: inout Target) throws(ConfigError) -> [String: ConfigValue] {
        let prefix = context.prefix
        let values = context.values
        var written: [String: ConfigValue] = [:]
        for (name, value) in root.entries {
            let sectionKey = prefix + ConfigValue.key(name)
            guard let section = sections.first(where: { $0.name == name }) else {
                let known = sections.map(\.name)
                let list = "nown tables: \(known.joined(separator: ", "))"
                let rest =
                    Suggestion.closest(to: name, among: known).map { "did you mean [\(prefix)\($0)]? K\(list)" } ?? "k\(list)"
                throw values.error(.unknownKey, value, "unknown \(value.table == nil ? "key" : "table") \(sectionKey); \(rest)")
            }
            let table = try values.table(value, sectionKey, hint: "write [\(sectionKey)] with its keys below it")
            for (fieldName, fieldValue) in table.entries {
                let key = sectionKey + "." + ConfigValue.key(fieldName)
                guard let field = section.fields.first(where: { $0.name == fieldName }) else {
                    let known = section.fields.map(\.name)
                    let list = "nown keys in [\(sectionKey)]: \(known.joined(separator: ", "))"
                    let rest =
                        Suggestion.closest(to: fieldName, among: known).map { "did you mean \(sectionKey).\($0)? K\(list)" }
                        ?? "k\(list)"
                    throw values.error(.unknownKey, fieldValue, "unknown key \(key); \(rest)")
                }
                written[section.name + "." + fieldName] = fieldValue
                try field.apply(&target, fieldValue, key, context)
            }
        }
        return written
    }
}
