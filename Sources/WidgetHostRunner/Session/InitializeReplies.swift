import Foundation
import Synchronization
import WidgetHostProtocol

/// `initialize` replies already decoded, by their exact bytes: every process of a bundle
/// answers `initialize` with the same line (its catalog, encoded with sorted keys), and a
/// cold reload starts a process every time. Decoding the line is a pure function of its
/// bytes, so an equal line gets the result decoded the first time: parsing it and
/// `JSONValueDecoder` over the catalog were ~0.2 M instructions of every cold reload (issue 16,
/// docs/benchmarks.md "Cold"). Only successful decodings are kept; a bound keeps bundles that
/// came and went (or changed their catalog) from piling up.
final class InitializeReplies: Sendable {
    static let shared = InitializeReplies()
    static let limit = 32

    /// Newest last. Looked up by length and then `memcmp`, newest first: hashing the line
    /// (~1 KB for the bench's catalog) cost ~2,700 instructions a cold reload; a few bundles
    /// at most are kept, so the scan is short and most lines differ in length.
    private let entries = Mutex<[(line: [UInt8], result: InitializeResult)]>([])

    func result(for line: [UInt8]) -> InitializeResult? {
        entries.withLock { entries in
            for index in entries.indices.reversed() where Self.same(entries[index].line, line) {
                return entries[index].result
            }
            return nil
        }
    }

    func remember(_ result: InitializeResult, for line: [UInt8]) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { Self.same($0.line, line) }) { entries.remove(at: index) }
            if entries.count >= Self.limit { entries.removeAll() }
            entries.append((line, result))
        }
    }

    var count: Int { entries.withLock { $0.count } }

    /// The same bytes: equal lengths, then one `memcmp`.
    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard let x = x.baseAddress, let y = y.baseAddress else { return true }
                return memcmp(x, y, a.count) == 0
            }
        }
    }
}
