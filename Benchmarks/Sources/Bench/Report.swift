import Foundation

/// One line of the table: a measured figure, the floor it chases, the ratio and the target.
struct Row: Encodable {
    var figure: String
    var measure: String
    var unit: String
    var median: Double
    var p99: Double?
    var floor: Double?
    /// median / floor (for rates: rate / floor rate).
    var ratio: Double?
    var target: String
    var met: Bool?
}

struct Report: Encodable {
    var date: String
    var host: String
    var cores: Int
    var quick: Bool
    var totalSeconds: Double = 0
    var rows: [Row] = []
    /// Everything else measured (fill times, thread counts, per-size core samples).
    var details: [String: Double] = [:]

    func table() -> String {
        let header = ["figure", "measure", "median", "p99", "floor", "ratio", "target", "met"]
        var cells: [[String]] = [header]
        for row in rows {
            cells.append([
                row.figure, row.measure, Self.format(row.median, row.unit), row.p99.map { Self.format($0, row.unit) } ?? "",
                row.floor.map { Self.format($0, row.unit) } ?? "", row.ratio.map { String(format: "%.2f×", $0) } ?? "",
                row.target, row.met.map { $0 ? "yes" : "NO" } ?? "",
            ])
        }
        let widths = header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for (index, line) in cells.enumerated() {
            text += zip(line, widths).enumerated().map { column, pair in
                column >= 2 && column <= 5 ? pad(pair.0, pair.1, left: true) : pad(pair.0, pair.1, left: false)
            }.joined(separator: "  ") + "\n"
            if index == 0 { text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        return text
    }

    private func pad(_ text: String, _ width: Int, left: Bool) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }

    static func format(_ value: Double, _ unit: String) -> String {
        guard value.isFinite else { return "n/a" }
        switch unit {
        case "µs":
            return value >= 10_000 ? String(format: "%.1f ms", value / 1000) : String(format: "%.0f µs", value)
        case "ns": return String(format: "%.1f ns", value)
        case "req/s": return String(format: "%.0f/s", value)
        case "MiB": return String(format: "%.2f MiB", value)
        case "s": return String(format: "%.3f s", value)
        case "instr": return String(format: "%.2f M", value / 1e6)
        default: return String(format: "%.2f %@", value, unit)
        }
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
