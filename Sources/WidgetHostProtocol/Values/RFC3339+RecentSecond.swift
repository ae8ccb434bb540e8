import Foundation

extension RFC3339 {
    /// `format(date)`'s bytes for dates that come in order, like a clock's: the date and time
    /// to the second are written once per second and kept, and only the fraction is written
    /// for each date (`status`'s `now`: `format` and its `String` were ~900 instructions a
    /// request, callgrind). Any date works in any order: another second is written afresh.
    public struct RecentSecond: Sendable {
        /// The UTF-8 bytes of `RFC3339.format(date)` for the last `date` given to `set`.
        public private(set) var text: [UInt8] = []
        /// The second whose `YYYY-MM-DDTHH:MM:SS` begins `text`; `Int.min` for none.
        private var second = Int.min

        public init() {}

        /// `text` becomes `RFC3339.format(date)`'s bytes.
        public mutating func set(_ date: Date) {
            let (whole, micros) = RFC3339.split(date)
            let (tail, tailCount) = Self.tail(micros)
            if whole == second, text.count == 19 + tailCount {
                // The usual case: the same second, a fraction as long: written over the last one.
                text.withUnsafeMutableBytes { out in
                    withUnsafeBytes(of: tail) { (out.baseAddress! + 19).copyMemory(from: $0.baseAddress!, byteCount: tailCount) }
                }
                return
            }
            if whole == second {
                text.removeSubrange(19...)
            } else {
                text.removeAll(keepingCapacity: true)
                guard Self.appendHead(whole, to: &text) else {
                    // A year outside 0...9999: `format`'s own way, and nothing kept.
                    second = Int.min
                    text = Array(RFC3339.format(date).utf8)
                    return
                }
                second = whole
            }
            withUnsafeBytes(of: tail) {
                text.append(contentsOf: UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: tailCount))
            }
        }

        /// What follows the seconds: `Z`, or `.` and the microseconds without trailing zeroes
        /// and `Z`; packed little-endian into one word (at most 8 bytes), and its length.
        private static func tail(_ micros: Int) -> (UInt64, Int) {
            guard micros != 0 else { return (UInt64(UInt8(ascii: "Z")), 1) }
            var digits = 6
            var fraction = micros
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            var packed = UInt64(UInt8(ascii: "Z")) << (8 * UInt64(digits + 1)) | UInt64(UInt8(ascii: "."))
            for index in stride(from: digits, through: 1, by: -1) {
                packed |= UInt64(UInt8(ascii: "0") + UInt8(fraction % 10)) << (8 * UInt64(index))
                fraction /= 10
            }
            return (packed, digits + 2)
        }

        /// `YYYY-MM-DDTHH:MM:SS` of the second `whole` (since 1970); false, and nothing
        /// appended, for a year outside 0...9999. `RFC3339.write` of the whole second, its
        /// `Z` left behind.
        private static func appendHead(_ whole: Int, to text: inout [UInt8]) -> Bool {
            var head: (UInt64, UInt64, UInt64) = (0, 0, 0)
            let written = withUnsafeMutableBytes(of: &head) { raw in
                RFC3339.write(whole: whole, micros: 0, into: raw.baseAddress!.assumingMemoryBound(to: UInt8.self)) != nil
            }
            guard written else { return false }
            withUnsafeBytes(of: head) {
                text.append(contentsOf: UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 19))
            }
            return true
        }
    }

    /// The whole seconds since 1970 and the microseconds of `date`, as `format` writes them
    /// (rounded to the microsecond; a fraction that rounds up to 1 s is the next second).
    static func split(_ date: Date) -> (whole: Int, micros: Int) {
        let interval = date.timeIntervalSince1970
        var whole = Int(interval.rounded(.down))
        var micros = Int(((interval - Double(whole)) * 1_000_000).rounded())
        if micros == 1_000_000 {
            whole += 1
            micros = 0
        }
        return (whole, micros)
    }
}
