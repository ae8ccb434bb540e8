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

    private let entries = Mutex<[[UInt8]: InitializeResult]>([:])

    func result(for line: [UInt8]) -> InitializeResult? {
        entries.withLock { $0[line] }
    }

    func remember(_ result: InitializeResult, for line: [UInt8]) {
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll() }
            entries[line] = result
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
