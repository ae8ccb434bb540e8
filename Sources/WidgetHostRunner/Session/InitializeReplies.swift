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

    private let entries = Mutex<[Line: InitializeResult]>([:])

    func result(for line: [UInt8]) -> InitializeResult? {
        entries.withLock { $0[Line(line)] }
    }

    func remember(_ result: InitializeResult, for line: [UInt8]) {
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll() }
            entries[Line(line)] = result
        }
    }

    var count: Int { entries.withLock { $0.count } }

    /// A line as a key, hashed and compared as one run of bytes. `[UInt8]`'s own `Hashable`
    /// feeds the hasher byte by byte: looking up the bench's `initialize` line cost 16,500
    /// instructions, every cold reload (issue 16, callgrind).
    private struct Line: Hashable, Sendable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (a: Line, b: Line) -> Bool {
            guard a.bytes.count == b.bytes.count else { return false }
            return a.bytes.withUnsafeBytes { x in
                b.bytes.withUnsafeBytes { y in
                    guard let x = x.baseAddress, let y = y.baseAddress else { return true }
                    return memcmp(x, y, a.bytes.count) == 0
                }
            }
        }
    }
}
