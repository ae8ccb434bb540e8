import Foundation
import NIOCore
import SeededRandom
import Testing
import WidgetHostCore
import WidgetHostProtocol
@testable import WidgetHostDaemon

/// `reloadTimelines` and `addWidget` are answered with their result encoded in one pass
/// (`ControlDispatcher.reply`, `.encodedResult`); every other reply goes through a `JSONValue`.
/// Both must put the same bytes on the wire.
@Suite("Control replies: one-pass results equal the JSONValue path")
struct ReplyEncodingTests {
    /// The line the connection writes for an `.encodedResult`.
    private func encodedLine(id: JSONRPCID, result: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBufferAllocator().buffer(capacity: 64)
        try ControlConnectionHandler.writeResponseLine(id: id, result: result, into: &buffer)
        return Array(buffer.readableBytesView)
    }

    /// The line it writes for a `.result`.
    private func valueLine(id: JSONRPCID, result: some Encodable) throws -> [UInt8] {
        Array(try JSONRPCMessage.response(id: id, result: JSONValue(encoding: result)).encodedLine())
    }

    private static let awkward = ["w1", "Birthday\"Home\\Widget", "ünï/cødé ✓", "tab\there", "", "line\nbreak"]

    private static func outcome(_ random: inout SeededGenerator) -> WidgetReloadOutcome {
        let dispositions: [ReloadDisposition] = [.started, .coalesced, .deferred]
        let date = Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random)) + [0, 0.5, 0.123456, 0.999].randomElement(using: &random)!)
        return WidgetReloadOutcome(
            id: awkward.randomElement(using: &random)!, kind: awkward.randomElement(using: &random)!,
            outcome: dispositions.randomElement(using: &random)!, budgeted: Bool.random(using: &random),
            until: Bool.random(using: &random) ? date : nil,
            reason: Bool.random(using: &random) ? DeferralReason.allCases.randomElement(using: &random) : nil,
            budget: Bool.random(using: &random)
                ? BudgetUsage(used: Int.random(in: 0...70, using: &random), limit: Int.random(in: 40...70, using: &random)) : nil)
    }

    @Test("reloadTimelines' ReloadResult: the same line both ways", arguments: [JSONRPCID.number(1), .number(-7), .number(Int.max), .string("r-\"1\"")])
    func reloadResult(id: JSONRPCID) throws {
        var random = SeededGenerator(seed: 16)
        for _ in 0..<200 {
            let outcomes = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.outcome(&random) }
            let now = Bool.random(using: &random) ? Date(timeIntervalSince1970: 1_795_000_000.25) : nil
            let result = ReloadResult(outcomes: outcomes, now: now)
            let oneStep = try encodedLine(id: id, result: try WireCoding.encodeBytes(result))
            #expect(oneStep == (try valueLine(id: id, result: result)), "\(result)")
            #expect(result.wireBytes == (try WireCoding.encodeBytes(result)), "\(result)")
        }
    }

    @Test("ReloadResult.wireBytes: every optional member present and absent, large counts")
    func reloadResultMembers() throws {
        let until = Date(timeIntervalSince1970: 1_795_000_123.000_5)
        for reason in DeferralReason.allCases + [nil] {
            for budget in [nil, BudgetUsage(used: Int.max, limit: -1)] {
                let outcome = WidgetReloadOutcome(
                    id: "w\u{1}\"", kind: "K/ü", outcome: .deferred, budgeted: reason == nil, until: reason.map { _ in until },
                    reason: reason, budget: budget)
                for result in [ReloadResult(outcomes: [outcome, outcome]), ReloadResult(outcomes: [], now: until)] {
                    #expect(result.wireBytes == (try WireCoding.encodeBytes(result)), "\(result)")
                }
            }
        }
    }

    /// A configurable widget's values: nested, numbers of both kinds, a string to escape.
    private static let configuration: IntentValues = [
        "count": .integer(3), "ratio": .number(1.5), "whole": .number(2), "name": .string("x\"y ✓"),
        "nested": .object(["b": .bool(true), "a": .null, "list": .array([.integer(-1), .string("")])]),
    ]

    @Test("addWidget's AddWidgetResult: the same line both ways")
    func addWidgetResult() throws {
        var random = SeededGenerator(seed: 17)
        for family in WidgetFamily.allCases {
            let widget = WidgetInfo(
                id: Self.awkward.randomElement(using: &random)!, kind: "BirthdayHomeWidget", family: family,
                app: "com.birthdayreminders", extension: "com.birthdayreminders.widget",
                configuration: Bool.random(using: &random) ? Self.configuration : nil)
            let result = AddWidgetResult(widget: widget, reload: Self.outcome(&random))
            let oneStep = try encodedLine(id: .number(3), result: try WireCoding.encodeBytes(result))
            #expect(oneStep == (try valueLine(id: .number(3), result: result)), "\(result)")
        }
    }
}
