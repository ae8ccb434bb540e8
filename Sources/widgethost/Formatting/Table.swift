/// Rows of text in aligned columns, two spaces apart; the last column is not padded.
struct Table {
    var header: [String]?
    var rows: [[String]] = []
    var indent = ""

    init(header: [String]? = nil, indent: String = "") {
        self.header = header
        self.indent = indent
    }

    mutating func append(_ row: [String]) { rows.append(row) }

    var rendered: String {
        let all = (header.map { [$0] } ?? []) + rows
        let columnCount = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columnCount)
        for row in all {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return all.map { row in
            var line = indent
            for (column, cell) in row.enumerated() {
                if column == row.count - 1 {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[column] - cell.count + 2)
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
