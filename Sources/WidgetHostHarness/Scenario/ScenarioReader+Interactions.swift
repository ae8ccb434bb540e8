import Foundation
import WidgetHostConfiguration
import WidgetHostProtocol

/// `[[widget]]`'s `taps` and `configure`, and `[[device]]`.
extension ScenarioReader {
    /// `taps = [ { every = "2h", from = "08:00", until = "22:00", button = "b1" } ]`,
    /// `configure = [ { at = ["12:00"] } ]`.
    func readInteractions(_ table: ConfigTable, key: String) throws(ConfigError) -> [WidgetInteraction] {
        var interactions: [WidgetInteraction] = []
        for kind in WidgetInteraction.Kind.allCases {
            let name = kind == .tap ? "taps" : "configure"
            for (index, item) in try values.inlineTables(table[name], "\(key).\(name)").enumerated() {
                let itemKey = "\(key).\(name)[\(index + 1)]"
                let schedule = try values.table(item, itemKey)
                try values.onlyKeys(
                    schedule, ["every", "at", "per_day", "from", "until"] + (kind == .tap ? ["button"] : []), in: itemKey)
                let button = try schedule["button"].map { v throws(ConfigError) in
                    try values.string(v, "\(itemKey).button", example: "\"b1\"")
                }
                interactions.append(
                    WidgetInteraction(
                        kind: kind, times: try readTimes(schedule, item, key: itemKey, what: kind == .tap ? "tap" : "edit"),
                        button: button, line: item.line))
            }
        }
        return interactions
    }

    /// When a schedule fires each day: one of `every` (with `from` / `until`), `at`, `per_day`.
    func readTimes(_ table: ConfigTable, _ value: ConfigValue, key: String, what: String) throws(ConfigError)
        -> ReloadSchedule.Times
    {
        let from = try table["from"].map { v throws(ConfigError) in try values.timeOfDay(v, "\(key).from") } ?? 0
        let until = try table["until"].map { v throws(ConfigError) in try values.timeOfDay(v, "\(key).until") } ?? 86_400
        if let untilValue = table["until"], until <= from {
            throw values.error(.inconsistent, untilValue, "\(key).until = \(untilValue.tomlText) is not after from; make until later than from")
        }
        let given = ["every", "at", "per_day"].filter { table[$0] != nil }
        guard given.count == 1 else {
            throw values.error(
                .invalidValue, value,
                given.isEmpty
                    ? "\(key) says when to \(what) with one of every = \"10m\", at = [\"08:00\"] or per_day = [5, 10]"
                    : "\(key) has \(given.joined(separator: " and ")); keep one of every, at and per_day")
        }
        if let every = table["every"] {
            return .every(try values.duration(every, "\(key).every", zero: false), from: from, until: until)
        }
        if let at = table["at"] {
            guard let list = at.array, !list.isEmpty else {
                throw values.error(.wrongType, at, "\(key).at must be a list of times of day, as in at = [\"08:00\", \"18:30\"]")
            }
            var offsets: [TimeInterval] = []
            for item in list { offsets.append(try values.timeOfDay(item, "\(key).at")) }
            return .at(offsets.sorted())
        }
        return .perDay(try values.countRange(table["per_day"]!, "\(key).per_day"), from: from, until: until)
    }

    /// `[[device]]`: `after = "10h"`, and `locale = "fr_FR"` and/or `text_size = "xxLarge"`.
    func readDeviceChange(_ value: ConfigValue, key: String, duration: TimeInterval) throws(ConfigError)
        -> ScenarioDeviceChange
    {
        let table = try values.table(value, key)
        try values.onlyKeys(table, ["after", "locale", "text_size"], in: "[[device]] (\(key))")
        guard let afterValue = table["after"] else {
            throw values.error(.invalidValue, value, "\(key) has no after; add after = \"10h\" (from the start)")
        }
        let after = try values.duration(afterValue, "\(key).after", zero: true)
        if after >= duration {
            throw values.error(
                .inconsistent, afterValue, "\(key).after = \(afterValue.tomlText) is not inside the simulated period; make it shorter than simulation.duration")
        }
        let locale = try table["locale"].map { v throws(ConfigError) in try values.string(v, "\(key).locale", example: "\"fr_FR\"") }
        var textSize: String?
        if let sizeValue = table["text_size"] {
            let size = try values.string(sizeValue, "\(key).text_size", example: "\"xxLarge\"")
            guard DynamicTypeSizeName.all.contains(size) else {
                throw values.error(
                    .invalidValue, sizeValue,
                    "\(key).text_size = \(sizeValue.tomlText) is not a Dynamic Type size; use one of "
                        + DynamicTypeSizeName.all.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            textSize = size
        }
        guard locale != nil || textSize != nil else {
            throw values.error(.invalidValue, value, "\(key) changes nothing; add locale = \"fr_FR\" or text_size = \"xxLarge\"")
        }
        return ScenarioDeviceChange(after: after, locale: locale, textSize: textSize, line: value.line)
    }
}
