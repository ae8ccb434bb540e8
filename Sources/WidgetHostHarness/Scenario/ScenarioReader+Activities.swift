import Foundation
import WidgetHostConfiguration
import WidgetHostCore
import WidgetHostProtocol

/// `[[activity]]` and `[[widget_push]]` tables.
extension ScenarioReader {
    func readActivity(_ value: ConfigValue, key: String, start: Date, timeZone: TimeZone) throws(ConfigError)
        -> ScenarioActivity
    {
        let table = try values.table(value, key)
        try values.onlyKeys(
            table,
            ["app", "attributes_type", "attributes", "state", "start", "frequent_updates", "stale_after", "updates", "pushes",
             "end", "dismissal", "dismiss_after"],
            in: "[[activity]] (\(key))")
        guard let appValue = table["app"] else {
            throw values.error(.invalidValue, value, "\(key) has no app; add app = \"com.example.sports\"")
        }
        let app = try values.string(appValue, "\(key).app", example: "\"com.example.sports\"")
        let type = try table["attributes_type"].map { v throws(ConfigError) in
            try values.string(v, "\(key).attributes_type", example: "\"ScoreAttributes\"")
        } ?? "ActivityAttributes"
        let clock = OffsetClock(start: start, timeZone: timeZone)
        let begin = try table["start"].map { v throws(ConfigError) in clock.offset(try values.timeOfDay(v, "\(key).start")) } ?? 0
        var updates: [ScenarioActivity.Repeat] = []
        for (index, item) in try values.inlineTables(table["updates"], "\(key).updates").enumerated() {
            updates.append(try readRepeat(item, key: "\(key).updates[\(index + 1)]", clock: clock, defaultFrom: begin))
        }
        var pushes: [ScenarioActivity.PushRepeat] = []
        for (index, item) in try values.inlineTables(table["pushes"], "\(key).pushes").enumerated() {
            let itemKey = "\(key).pushes[\(index + 1)]"
            let push = try values.table(item, itemKey)
            try values.onlyKeys(push, ["every", "from", "until", "priority", "event"], in: itemKey)
            let priority = try push["priority"].map { v throws(ConfigError) in try values.integer(v, "\(itemKey).priority", atLeast: 1) } ?? 10
            guard priority == 5 || priority == 10 else {
                throw values.error(.invalidValue, push["priority"]!, "\(itemKey).priority must be 5 or 10 (apns-priority)")
            }
            let event = try push["event"].map { v throws(ConfigError) in try values.string(v, "\(itemKey).event", example: "\"update\"") } ?? "update"
            guard event == "update" || event == "end" else {
                throw values.error(.invalidValue, push["event"]!, "\(itemKey).event must be \"update\" or \"end\"")
            }
            pushes.append(
                ScenarioActivity.PushRepeat(
                    times: try readRepeat(item, key: itemKey, clock: clock, defaultFrom: begin, extraKeys: ["priority", "event"]),
                    priority: priority, event: event))
        }
        let end = try table["end"].map { v throws(ConfigError) in clock.offset(try values.timeOfDay(v, "\(key).end")) }
        var policy: ActivityDismissalPolicyPayload?
        if let dismissal = table["dismissal"] {
            switch try values.string(dismissal, "\(key).dismissal", example: "\"default\"") {
            case "default": policy = .default
            case "immediate": policy = .immediate
            case "after": policy = .after(start)  // the date is set when it ends
            default:
                throw values.error(.invalidValue, dismissal, "\(key).dismissal must be \"default\", \"immediate\" or \"after\"")
            }
        }
        return ScenarioActivity(
            app: app, attributesType: type,
            attributes: try table["attributes"].map { v throws(ConfigError) in try json(v, "\(key).attributes") } ?? .object([:]),
            state: try table["state"].map { v throws(ConfigError) in try json(v, "\(key).state") } ?? .object([:]),
            start: begin,
            frequentUpdates: try table["frequent_updates"].map { v throws(ConfigError) in try values.boolean(v, "\(key).frequent_updates") } ?? false,
            staleAfter: try table["stale_after"].map { v throws(ConfigError) in try values.duration(v, "\(key).stale_after", zero: false) },
            updates: updates, pushes: pushes, end: end, dismissalPolicy: policy,
            dismissAfter: try table["dismiss_after"].map { v throws(ConfigError) in try values.duration(v, "\(key).dismiss_after", zero: true) },
            line: value.line)
    }

    func readWidgetPush(_ value: ConfigValue, key: String, start: Date, timeZone: TimeZone) throws(ConfigError)
        -> ScenarioWidgetPush
    {
        let table = try values.table(value, key)
        guard let kindValue = table["kind"] else {
            throw values.error(.invalidValue, value, "\(key) has no kind; add kind = \"ScoreWidget\"")
        }
        return ScenarioWidgetPush(
            kind: try values.string(kindValue, "\(key).kind", example: "\"ScoreWidget\""),
            times: try readRepeat(value, key: key, clock: OffsetClock(start: start, timeZone: timeZone), defaultFrom: 0, extraKeys: ["kind"]),
            line: value.line)
    }

    private func readRepeat(
        _ value: ConfigValue, key: String, clock: OffsetClock, defaultFrom: TimeInterval, extraKeys: [String] = []
    ) throws(ConfigError) -> ScenarioActivity.Repeat {
        let table = try values.table(value, key)
        try values.onlyKeys(table, ["every", "from", "until"] + extraKeys, in: key)
        guard let every = table["every"] else {
            throw values.error(.invalidValue, value, "\(key) needs every, as in { every = \"2m\", from = \"19:00\", until = \"22:00\" }")
        }
        let from = try table["from"].map { v throws(ConfigError) in clock.offset(try values.timeOfDay(v, "\(key).from")) } ?? defaultFrom
        let until = try table["until"].map { v throws(ConfigError) in clock.offset(try values.timeOfDay(v, "\(key).until")) } ?? .infinity
        if let untilValue = table["until"], until <= from {
            throw values.error(.inconsistent, untilValue, "\(key).until = \(untilValue.tomlText) is not after from; make until later than from")
        }
        return ScenarioActivity.Repeat(every: try values.duration(every, "\(key).every", zero: false), from: from, until: until)
    }

    /// A TOML value as JSON (tables → objects, arrays, strings, numbers, booleans).
    private func json(_ value: ConfigValue, _ key: String) throws(ConfigError) -> JSONValue {
        if let table = value.table {
            var object: [String: JSONValue] = [:]
            for (name, item) in table.entries { object[name] = try json(item, key + "." + name) }
            return .object(object)
        }
        if let array = value.array {
            var items: [JSONValue] = []
            for item in array { items.append(try json(item, key)) }
            return .array(items)
        }
        switch value.content {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .float(let number): return .number(number)
        case .boolean(let flag): return .bool(flag)
        default:
            throw values.error(.wrongType, value, "\(key) holds a value JSON cannot carry; use strings, numbers, booleans, arrays and tables")
        }
    }
}

/// Times of day on the scenario's first day, as seconds after its start.
struct OffsetClock {
    let start: Date
    let timeZone: TimeZone

    func offset(_ timeOfDay: TimeInterval) -> TimeInterval {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight = calendar.startOfDay(for: start)
        return max(0, midnight.timeIntervalSince(start) + timeOfDay)
    }
}
