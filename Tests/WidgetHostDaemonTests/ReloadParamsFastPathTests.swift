import Testing
import WidgetHostProtocol

@testable import WidgetHostDaemon

/// `ReloadTimelinesParams.plain` reads a plain `reloadTimelines`'s params without the Codable
/// path (issue 16: ~45 k instructions before a cold reload's spawn). Whatever it takes it reads
/// as the Codable path does; whatever the Codable path refuses, it leaves to it.
@Suite("reloadTimelines' params, read directly")
struct ReloadParamsFastPathTests {
    static let values: [JSONValue?] = [
        nil, .null, .bool(true), .bool(false), .integer(1), .number(1.5), .string(""), .string("K"), .string("é\u{0}"),
        .array([]), .array([.string("K")]), .object([:]), .object(["kind": .string("K")]),
    ]

    @Test("Every combination of kind, app and foreground, with and without another member: the same value or left to Codable")
    func sameAsCodable() throws {
        var taken = 0
        for kind in Self.values {
            for app in Self.values {
                for foreground in Self.values {
                    for extra in [false, true] {
                        var members: [String: JSONValue] = [:]
                        if let kind { members["kind"] = kind }
                        if let app { members["app"] = app }
                        if let foreground { members["foreground"] = foreground }
                        if extra { members["other"] = .array([.null]) }
                        let params = JSONValue.object(members)
                        let codable = try? params.decode(as: ReloadTimelinesParams.self)
                        guard let plain = ReloadTimelinesParams.plain(params) else { continue }
                        taken += 1
                        #expect(plain == codable, "\(params)")
                    }
                }
            }
        }
        // kind a string (2 of them plus "é\0": 3) × app nil/null/3 strings (5) × foreground nil/null/2 Bools (4) × 2.
        #expect(taken == 3 * 5 * 4 * 2)
    }

    @Test("The common request is read directly; params that are not an object are left to Codable's refusal")
    func commonAndRefused() {
        #expect(ReloadTimelinesParams.plain(.object(["kind": .string("BenchWidget")])) == ReloadTimelinesParams(kind: "BenchWidget"))
        #expect(
            ReloadTimelinesParams.plain(.object(["kind": .string("K"), "app": .string("a"), "foreground": .bool(true)]))
                == ReloadTimelinesParams(kind: "K", app: "a", foreground: true))
        for params: JSONValue? in [nil, .null, .array([.object(["kind": .string("K")])]), .string("K"), .object(["kind": .integer(1)])] {
            #expect(ReloadTimelinesParams.plain(params) == nil)
        }
    }
}
