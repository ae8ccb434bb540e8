import Foundation

/// Measured figures in the words a checklist uses: "12 ms", "3.10 s", "8.4 MiB", "4 h".
enum Figures {
    static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        return String(format: "%.2f s", seconds)
    }

    /// A limit or interval: "1 s", "5 s", "15 min", "4 h", "1 h 30 min", "2 days".
    static func interval(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 {
            return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s"
        }
        if whole < 2 * 86_400 {
            let minutes = (whole % 3600) / 60
            return minutes == 0 ? "\(whole / 3600) h" : "\(whole / 3600) h \(minutes) min"
        }
        return String(format: "%.1f days", seconds / 86_400)
    }

    static func bytes(_ count: Int) -> String {
        String(format: "%.1f MiB", Double(count) / 1_048_576)
    }

    static func mebibytes(_ count: Int) -> String {
        count % 1_048_576 == 0 ? "\(count / 1_048_576) MiB" : bytes(count)
    }
}
