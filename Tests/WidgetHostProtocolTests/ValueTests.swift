import Foundation
import Testing
import WidgetHostProtocol

@Suite("Timeline values and JSON on the wire")
struct ValueTests {
    let date = Date(timeIntervalSince1970: 1_771_142_400)  // 2026-02-15T08:00:00Z

    private func wire(_ value: some Encodable) throws -> String {
        String(decoding: try WireCoding.encode(value), as: UTF8.self)
    }

    @Test("Each reload policy has its wire form and reads back", arguments: [
        (TimelinePolicy.atEnd, #"{"type":"atEnd"}"#),
        (.never, #"{"type":"never"}"#),
        (.after(Date(timeIntervalSince1970: 1_771_142_400)), #"{"date":"2026-02-15T08:00:00Z","type":"after"}"#),
    ])
    func policyWireForm(policy: TimelinePolicy, text: String) throws {
        #expect(try wire(policy) == text)
        #expect(try WireCoding.decode(TimelinePolicy.self, from: Data(text.utf8)) == policy)
    }

    @Test("An after policy with an offset date reads as the same instant")
    func policyWithOffset() throws {
        let policy = try WireCoding.decode(TimelinePolicy.self, from: Data(#"{"type":"after","date":"2026-02-15T10:00:00+02:00"}"#.utf8))
        #expect(policy == .after(date))
    }

    @Test("An unknown policy type is rejected naming the three that exist")
    func unknownPolicy() {
        #expect {
            try WireCoding.decode(TimelinePolicy.self, from: Data(#"{"type":"sometimes"}"#.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == #"policy type "sometimes" is not one of atEnd, after, never"#
        }
    }

    @Test("Malformed policies are rejected", arguments: [
        #"{"type":"after"}"#, #"{"type":"after","date":"tomorrow"}"#, #"{"date":"2026-02-15T08:00:00Z"}"#, #"{"type":3}"#,
        #""atEnd""#,
    ])
    func malformedPolicy(text: String) {
        #expect(throws: DecodingError.self) { try WireCoding.decode(TimelinePolicy.self, from: Data(text.utf8)) }
    }

    @Test("A timeline round-trips, relevance included and left out when absent")
    func timelineRoundTrip() throws {
        let timeline = TimelinePayload(
            entries: [
                TimelineEntryPayload(date: date, content: ["names": ["Ada"]]),
                TimelineEntryPayload(
                    date: date.addingTimeInterval(3600.25), relevance: EntryRelevance(score: 0.5, duration: 600),
                    content: "text"),
            ],
            policy: .atEnd)
        let text = try wire(timeline)
        #expect(
            text
                == #"{"entries":[{"content":{"names":["Ada"]},"date":"2026-02-15T08:00:00Z"},"#
                + #"{"content":"text","date":"2026-02-15T09:00:00.25Z","relevance":{"duration":600,"score":0.5}}],"#
                + #""policy":{"type":"atEnd"}}"#)
        #expect(try WireCoding.decode(TimelinePayload.self, from: Data(text.utf8)) == timeline)
    }

    @Test("Every kind of JSON value round-trips")
    func jsonValueRoundTrip() throws {
        let value: JSONValue = [
            "null": nil, "true": true, "false": false, "integer": -42, "big": .integer(Int.max), "number": 2.5,
            "small": 1e-9, "string": "Ünïcödé \"quoted\" \\ / \n tab\t 🎂", "empty": "",
            "array": [1, "two", [3], [:], []], "object": ["nested": ["deeper": [nil]]],
        ]
        let data = try WireCoding.encode(value)
        #expect(try WireCoding.decode(JSONValue.self, from: data) == value)
        #expect(try JSONValue(encoding: value) == value)
        #expect(try value.decode(as: JSONValue.self) == value)
    }

    @Test("JSON has one number type: a whole double reads back as an integer")
    func wholeDouble() throws {
        #expect(try JSONValue(encoding: 3.0) == .integer(3))
        #expect(try JSONValue(encoding: 3.5) == .number(3.5))
    }

    @Test("JSONValue converts to and from typed values")
    func typedConversion() throws {
        let params = TimelineParams(kind: "K", family: .accessoryInline, widgetId: "w1", now: date)
        let value = try JSONValue(encoding: params)
        #expect(value == ["kind": "K", "family": "accessoryInline", "widgetId": "w1", "now": "2026-02-15T08:00:00Z"])
        #expect(try value.decode(as: TimelineParams.self) == params)
        #expect(value["kind"]?.stringValue == "K")
        #expect(value["missing"] == nil)
        #expect(JSONValue.array([1])["kind"] == nil)
    }

    @Test("Widget families parse by name, and an unknown one lists the known ones")
    func families() throws {
        #expect(try WidgetFamily.parse("systemSmall").get() == .systemSmall)
        guard case .failure(let error) = WidgetFamily.parse("huge") else {
            Issue.record("expected huge to be unknown")
            return
        }
        #expect(
            error.description
                == #"unknown widget family "huge"; known families are systemSmall, systemMedium, systemLarge, "#
                + "systemExtraLarge, accessoryCircular, accessoryRectangular, accessoryInline")
    }
}
