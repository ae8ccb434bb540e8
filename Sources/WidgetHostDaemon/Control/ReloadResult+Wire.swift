import WidgetHostProtocol

extension ReloadResult {
    /// `WireCoding.encodeBytes(self)`, written member by member in the encoder's key order
    /// (`JSONTextWriter`). `reloadTimelines`' answer is made inside the request's batch, before
    /// the extension's spawn: through `WireEncoder` it was ~33 k instructions of a cold reload's
    /// path (a node and a sort per object; callgrind, issue 16). `ReplyEncodingTests` holds the
    /// two to the same bytes.
    var wireBytes: [UInt8] {
        var text = JSONTextWriter(reservingCapacity: 64 + 192 * outcomes.count)
        text.append("{")
        if let now {
            text.append(#""now":"#)
            text.date(now)
            text.append(",")
        }
        text.append(#""outcomes":["#)
        for (index, outcome) in outcomes.enumerated() {
            if index > 0 { text.append(",") }
            outcome.write(into: &text)
        }
        text.append("]}")
        return text.bytes
    }
}

extension WidgetReloadOutcome {
    /// The object, keys sorted: budget, budgeted, id, kind, outcome, reason, until (the
    /// optional ones only when present, as the synthesized `encode(to:)` writes them).
    fileprivate func write(into text: inout JSONTextWriter) {
        text.append("{")
        if let budget {
            text.append(#""budget":{"limit":"#)
            text.integer(budget.limit)
            text.append(#","used":"#)
            text.integer(budget.used)
            text.append("},")
        }
        text.append(#""budgeted":"#)
        text.bool(budgeted)
        text.append(#","id":"#)
        text.string(id)
        text.append(#","kind":"#)
        text.string(kind)
        text.append(#","outcome":"#)
        text.string(outcome.rawValue)
        if let reason {
            text.append(#","reason":"#)
            text.string(reason.rawValue)
        }
        if let until {
            text.append(#","until":"#)
            text.date(until)
        }
        text.append("}")
    }
}
