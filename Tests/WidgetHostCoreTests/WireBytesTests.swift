import Foundation
import Testing
@testable import WidgetHostCore
@testable import WidgetHostProtocol

/// What the daemon stores and sends is written by `WireEncoder`; it must be `JSONEncoder`'s
/// bytes for every record, status and notice a day of reloads produces (successes, failures
/// and backoff, budget deferrals, ledgers, views, pinned budgets).
@Suite("Records, statuses and notices: the wire encoder's bytes are JSONEncoder's")
struct WireBytesTests {
    @Test("A day of reloads, failures and deferrals encodes the same both ways")
    func dayOfRecords() throws {
        var serial = 0
        var test = TestHost(provider: { params in
            serial += 1
            if serial % 7 == 0 { return .fail(.crashed("exit 1: \"quoted\" / path")) }
            let view = ViewArchive(family: .systemSmall, root: ViewNode(.text([ArchiveTextRun(.string("Hi \(serial)"))])))
            var first = entry(at: params.now, "Ada \(serial) 🎂")
            first.view = view
            first.relevance = EntryRelevance(score: Double(serial) / 3, duration: 90)
            return .timeline(
                TimelinePayload(
                    entries: [first, entry(at: params.now + .minutes(30) + 0.125, "later")],
                    policy: serial % 2 == 0 ? .after(params.now + .minutes(20)) : .atEnd))
        })
        for index in 0..<12 { test.add(pinned: index % 3 == 0 ? 3 : nil) }
        for hour in 0..<30 {
            test.advance(by: .minutes(47))
            if hour % 4 == 0 { _ = test.reload() }
        }
        let now = test.now
        for record in test.host.allRecords { try same(record) }
        try same(test.host.host)
        try same(try test.host.status(at: now).get())
        for notice in test.notices { try same(notice) }
    }

    private func same<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = try WireEncoder.encode(value)
        let foundation = Array(try WireCoding.encoder.encode(value))
        #expect(
            String(decoding: fast, as: UTF8.self) == String(decoding: foundation, as: UTF8.self),
            sourceLocation: sourceLocation)
    }
}
