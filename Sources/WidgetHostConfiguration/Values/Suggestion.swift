import Foundation

/// "did you mean …": the known name closest to a misspelt one, for config and scenario keys alike.
public enum Suggestion {
    /// The known name closest to `name` when it is close enough to be a typo: the same name
    /// in another case or with `-` for `_`, or within a third of its length in edits (at least one).
    public static func closest(to name: String, among known: [String]) -> String? {
        let normalized = name.lowercased().replacingOccurrences(of: "-", with: "_")
        if let exact = known.first(where: { $0 == normalized }) { return exact }
        let scored = known.map { ($0, distance(normalized, $0)) }.filter { $0.1 <= max(1, $0.0.count / 3) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = Swift.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = Swift.min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
