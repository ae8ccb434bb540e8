import Foundation
import PropertyBased
import Testing
import WidgetHostProtocol
import WidgetHostReloadArguments

/// `reload`'s simple forms as the front and the full CLI's fast path read them (both
/// executables run them end to end in CLIFastPathTests and CLIFrontTests), and the request
/// line the front writes, which must be the full CLI's byte for byte.
@Suite("ReloadArguments")
struct ReloadArgumentsTests {
    static let environment: [String: String] = ["WIDGETHOST_APP": "com.fromenv", "WIDGETHOST_SOCKET": "/env.sock"]

    static func parse(_ arguments: [String], environment: [String: String] = environment) -> ReloadArguments? {
        ReloadArguments.parse(arguments, environment: { environment[$0] })
    }

    @Test("The simple forms, as --name value and --name=value, in any order")
    func simpleForms() {
        #expect(Self.parse(["reload", "--kind", "K"]) == ReloadArguments(kind: "K"))
        #expect(Self.parse(["reload", "--kind=K"]) == ReloadArguments(kind: "K"))
        #expect(
            Self.parse(["reload", "--json", "--foreground", "--app=com.a", "--kind", "K", "--socket", "/s"])
                == ReloadArguments(kind: "K", app: "com.a", foreground: true, json: true, socket: "/s"))
        #expect(Self.parse(["reload", "--all", "--app", "com.a"]) == ReloadArguments(all: true, app: "com.a"))
        #expect(Self.parse(["reload", "--kind", "a=b"]) == ReloadArguments(kind: "a=b"))
        #expect(Self.parse(["reload", "--kind=-x"]) == nil)
    }

    @Test("--all without --app takes $WIDGETHOST_APP; --kind does not")
    func appFromEnvironment() {
        #expect(Self.parse(["reload", "--all"]) == ReloadArguments(all: true, app: "com.fromenv"))
        #expect(Self.parse(["reload", "--kind", "K"])?.app == nil)
        #expect(Self.parse(["reload", "--all"], environment: [:]) == nil)
        #expect(Self.parse(["reload", "--all"], environment: ["WIDGETHOST_APP": ""]) == nil)
    }

    @Test(
        "Whatever the full CLI's parser must read or refuse is left to it",
        arguments: [
            [], ["status"], ["reload"], ["reload", "--all", "--kind", "K"], ["reload", "--kind"],
            ["reload", "--kind", "K", "--kind", "L"], ["reload", "--kind=K", "--kind", "L"], ["reload", "--kind", ""],
            ["reload", "--kind="], ["reload", "--kind", "-x"], ["reload", "--kind", "--all"],
            ["reload", "--kind", "K", "--timeout", "5"], ["reload", "--kind", "K", "--bogus"],
            ["reload", "--kind", "K", "extra"], ["reload", "--json=yes", "--kind", "K"],
            ["reload", "--foreground=true", "--kind", "K"], ["reload", "--help"], ["reload", "-h"],
            ["reload", "--kind", "K", "--socket"], ["reload", "--kind", "K", "--app", ""], ["reload", "-k", "K"],
        ])
    func leftToTheParser(arguments: [String]) {
        #expect(Self.parse(arguments) == nil)
    }

    @Test("WIDGETHOST_FAST_PATH=0 leaves every form to the parser")
    func turnedOff() {
        #expect(Self.parse(["reload", "--kind", "K"], environment: ["WIDGETHOST_FAST_PATH": "0"]) == nil)
        #expect(Self.parse(["reload", "--kind", "K"], environment: ["WIDGETHOST_FAST_PATH": "1"]) != nil)
    }

    @Test("The socket: --socket, else $WIDGETHOST_SOCKET, else /run/widgethost.sock")
    func socketPath() {
        let explicit = Self.parse(["reload", "--kind", "K", "--socket=/s"])
        #expect(explicit?.socketPath(environment: { Self.environment[$0] }) == "/s")
        let plain = Self.parse(["reload", "--kind", "K"])
        #expect(plain?.socketPath(environment: { Self.environment[$0] }) == "/env.sock")
        #expect(plain?.socketPath(environment: { _ in "" }) == "/run/widgethost.sock")
        #expect(plain?.socketPath(environment: { _ in nil }) == "/run/widgethost.sock")
    }

    /// Kinds and apps with what an encoder might escape: quotes, backslashes, slashes, DEL,
    /// U+2028, combining marks, astral scalars, and now and then a control character.
    static let text = Gen<Character>.oneOf(
        Gen.character(in: " "..."~"),
        Gen<Character?>.element(of: ["\"", "\\", "/", "\u{7F}", "\u{2028}", "e\u{301}", "🎂", "\u{1}", "\n"] as [Character])
            .map { $0! },
        Gen.character(in: "\u{80}"..."\u{D7FF}"),
        Gen.character(in: "\u{E000}"..."\u{10FFFF}")
    ).string(of: 1...12)

    @Test("The request line is the full CLI's encoder's, byte for byte, or nil with a control character")
    func requestLineIsTheEncoders() async {
        await propertyCheck(count: 300, input: Self.text, Self.text, Gen.int(in: 0...3)) { kind, app, shape in
            let arguments = ReloadArguments(
                kind: shape < 2 ? kind : nil, all: shape >= 2, app: shape == 0 ? nil : app, foreground: shape % 2 == 1)
            let params: JSONValue
            if let kind = arguments.kind {
                params = try JSONValue(
                    encoding: ReloadTimelinesParams(kind: kind, app: arguments.app, foreground: arguments.foreground ? true : nil))
            } else {
                params = try JSONValue(
                    encoding: ReloadAllTimelinesParams(app: app, foreground: arguments.foreground ? true : nil))
            }
            let encoded = try JSONRPCMessage.request(id: .number(1), method: arguments.method, params: params).encodedLine()
            let values = [arguments.kind, arguments.app].compactMap { $0 }
            if values.contains(where: { $0.unicodeScalars.contains { $0.value < 0x20 } }) {
                #expect(arguments.requestLine == nil)
            } else {
                #expect(arguments.requestLine == Array(encoded), "\(String(decoding: encoded, as: UTF8.self))")
            }
        }
    }
}
