import WidgetHostReloadArguments

/// A reply to the front's reload, in the full CLI's words (`ReloadCommand.perform`,
/// `ReloadText`, `Table`), or nil when the front leaves the reply to the full CLI: anything
/// but a plain success (`{"jsonrpc":"2.0","id":1,"result":…}` whose result decodes as
/// `ReloadResult`), and any outcome that names a time (the full CLI writes local times with
/// Foundation's calendar; the front links no Foundation). What it accepts is a subset of
/// what `ControlClient` and `ReloadResult`'s decoder accept, so both paths print the same.
enum ReloadReplyText {
    static let outcomes: Set<String> = ["started", "coalesced", "deferred"]
    static let reasons: Set<String> = [
        "budgetExhausted", "minInterval", "backoff", "reloadInProgress", "extensionUnavailable",
    ]

    static func text(replyLine line: ArraySlice<UInt8>, request: ReloadArguments) -> String? {
        guard let reply = FrontJSON.parse(line), reply["jsonrpc"] == .string("2.0"), reply["id"] == .number("1"),
            reply["error"] == nil, reply["method"] == nil, let result = reply["result"],
            case .array(let outcomes)? = result["outcomes"], isDate(result["now"])
        else { return nil }
        var rows: [[String]] = []
        for outcome in outcomes {
            guard let row = row(outcome) else { return nil }
            rows.append(row)
        }
        guard !rows.isEmpty else {
            let what = request.kind.map { "of kind \($0)" } ?? "of app \(request.app ?? "")"
            return "No widgets \(what) to reload; add one with `widgethost add \(request.kind ?? "KIND") --family systemSmall`.\n"
        }
        return table(rows) + "\n"
    }

    /// One `WidgetReloadOutcome` as `ReloadText.lines` has it: id, kind, what happened.
    private static func row(_ outcome: FrontJSON) -> [String]? {
        guard case .string(let id)? = outcome["id"], case .string(let kind)? = outcome["kind"],
            case .string(let disposition)? = outcome["outcome"], outcomes.contains(disposition),
            case .bool(let budgeted)? = outcome["budgeted"], isDate(outcome["until"])
        else { return nil }
        var reason: String?
        switch outcome["reason"] {
        case nil, .null?: break
        case .string(let text)? where reasons.contains(text): reason = text
        default: return nil
        }
        var budget: (used: String, limit: String)?
        switch outcome["budget"] {
        case nil, .null?: break
        case let value?:
            guard let used = integer(value["used"]), let limit = integer(value["limit"]) else { return nil }
            budget = (used, limit)
        }
        let hasTime = outcome["until"] != nil && outcome["until"] != .null
        let text: String
        switch disposition {
        case "started":
            var details = [budgeted ? "budgeted" : "exempt"]
            if let budget { details.append("\(budget.used) of \(budget.limit) used") }
            text = "started (\(details.joined(separator: ", ")))"
        case "coalesced":
            guard !hasTime else { return nil }
            text = "coalesced into the pending reload" + (reason.map { " (\($0))" } ?? "")
        default:
            guard !hasTime else { return nil }
            switch reason {
            case "reloadInProgress"?: text = "deferred (reloadInProgress: one more reload follows the running one)"
            case "extensionUnavailable"?: text = "deferred (extensionUnavailable: its extension is not loaded)"
            case let reason?: text = "deferred (\(reason))"
            case nil: text = "deferred"
            }
        }
        return [id, kind, text]
    }

    /// An `Int` as JSON writes it: digits, no fraction or exponent, in range; its decimal text.
    private static func integer(_ value: FrontJSON?) -> String? {
        guard case .number(let text)? = value, let number = Int(text) else { return nil }
        return String(number)
    }

    /// Absent, null, or a date as the daemon writes one (`RFC3339.format`:
    /// `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`), which `RFC3339.parse` reads.
    private static func isDate(_ value: FrontJSON?) -> Bool {
        switch value {
        case nil, .null?: return true
        case .string(let text)?:
            let bytes = Array(text.utf8)
            guard bytes.count == 20 || (22...27).contains(bytes.count), bytes.last == UInt8(ascii: "Z") else { return false }
            func digits(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = digits(0..<4), bytes[4] == UInt8(ascii: "-"), let month = digits(5..<7),
                bytes[7] == UInt8(ascii: "-"), let day = digits(8..<10), bytes[10] == UInt8(ascii: "T"),
                let hour = digits(11..<13), bytes[13] == UInt8(ascii: ":"), let minute = digits(14..<16),
                bytes[16] == UInt8(ascii: ":"), let second = digits(17..<19)
            else { return false }
            if bytes.count > 20 {
                guard bytes[19] == UInt8(ascii: "."), digits(20..<bytes.count - 1) != nil else { return false }
            }
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            return (1...12).contains(month) && day >= 1 && day <= days[month - 1] && hour < 24 && minute < 60
                && second < 61
        default:
            return false
        }
    }

    /// `Table.rendered` without a header: columns two spaces apart, the last not padded.
    private static func table(_ rows: [[String]]) -> String {
        var widths = [Int](repeating: 0, count: 3)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
