import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// The Live Activity attributes an extension sends beside its views (`keylineTint`, the island's
/// `widgetURL`) and on them (`activityBackgroundTint`, `activitySystemActionForegroundColor`,
/// `widgetURL`, `Link`): untrusted, so each is checked and a bad one refuses the reply.
@Suite("activity/render replies: tints and URLs")
struct ActivityViewAttributeTests {
    private static let text = #"{"version":1,"root":{"type":"text","runs":[{"text":"x"}]}}"#

    /// A reply whose Lock Screen root carries `modifiers` (JSON) and whose result has `extra` fields.
    private static func reply(modifiers: String = "[]", extra: String = "") -> Data {
        let lockScreen = #"{"version":1,"root":{"type":"text","runs":[{"text":"x"}],"modifiers":"# + modifiers + "}}"
        var json = #"{"lockScreen":"# + lockScreen + #","compactLeading":"# + text + #","compactTrailing":"# + text
        json += #","minimal":"# + text + #","expanded":[]"# + extra + "}"
        return Data(json.utf8)
    }

    private static func verdict(_ data: Data) -> Result<ActivityRenderResult, ActivityViewValidation.Refusal> {
        ActivityViewValidation.validate(resultBytes: data, limits: ExtensionLimits())
    }

    @Test("Tints and URLs the SDK sends are accepted and kept: the island's keyline and URL, the view's tints")
    func accepted() throws {
        let data = Self.reply(
            modifiers: #"[{"type":"activityBackgroundTint","color":{"rgb":[0,0,0]}},"#
                + #"{"type":"activitySystemActionForegroundColor","color":{"system":"white","opacity":0.8}},"#
                + #"{"type":"activityBackgroundTint"},{"type":"widgetURL","url":"pizza://order/12345"}]"#,
            extra: #","keylineTint":{"system":"orange"},"widgetURL":"pizza://orders""#)
        let result = try Self.verdict(data).get()
        #expect(result.keylineTint == ArchiveColor(.system("orange")))
        #expect(result.widgetURL == "pizza://orders")
        #expect(result.lockScreen.root.modifiers.first == .activityBackgroundTint(ArchiveColor(.rgb(red: 0, green: 0, blue: 0))))
        #expect(result.lockScreen.root.modifiers[1] == .activitySystemActionForegroundColor(ArchiveColor(.system("white"), opacity: 0.8)))
        // No colour: the system's background.
        #expect(result.lockScreen.root.modifiers[2] == .activityBackgroundTint(nil))
    }

    @Test(
        "A tint that is not a colour refuses the reply with badColor, naming where it was",
        arguments: [
            (#"[{"type":"activityBackgroundTint","color":"black"}]"#, "", "lockScreen view has activityBackgroundTint"),
            (#"[{"type":"activityBackgroundTint","color":{"rgb":[2,0,0]}}]"#, "", "activityBackgroundTint"),
            (#"[{"type":"activitySystemActionForegroundColor","color":{"system":"chartreuse"}}]"#, "", "activitySystemActionForegroundColor"),
            (#"[{"type":"activityBackgroundTint","color":{"system":"red","opacity":7}}]"#, "", "activityBackgroundTint"),
            ("[]", #","keylineTint":{"hue":3}"#, "keylineTint"),
            ("[]", #","keylineTint":{"named":""}"#, "keylineTint"),
        ])
    func badColor(modifiers: String, extra: String, named: String) {
        guard case .failure(let refusal) = Self.verdict(Self.reply(modifiers: modifiers, extra: extra)) else {
            Issue.record("\(modifiers) \(extra) was accepted")
            return
        }
        #expect(refusal.code == "badColor")
        #expect(refusal.message.contains(named))
        #expect(refusal.message.contains("not a colour"))
    }

    @Test("A keylineTint of another JSON type is not of the result's shape: malformedReply")
    func keylineOfAnotherType() {
        guard case .failure(let refusal) = Self.verdict(Self.reply(extra: #","keylineTint":"orange""#)) else {
            Issue.record("a string keylineTint was accepted")
            return
        }
        #expect(refusal.code == "malformedReply")
    }

    @Test(
        "A URL that is not one, or is too long, refuses the reply with badURL",
        arguments: [
            ("not a url", "whitespace"),
            ("orders/12345", "scheme"),
            ("", "scheme"),
            ("pizza://order/\u{7}", "control"),
            ("pizza://" + String(repeating: "a", count: ActivityURLCheck.maxBytes - 7), "over 2048"),
        ])
    func badURL(url: String, reason: String) throws {
        let quoted = String(decoding: try WireCoding.encode(url), as: UTF8.self)
        for (modifiers, extra, place) in [
            ("[]", #","widgetURL":"# + quoted, "Dynamic Island's widgetURL"),
            (#"[{"type":"widgetURL","url":"# + quoted + "}]", "", "lockScreen view has a widgetURL"),
        ] {
            guard case .failure(let refusal) = Self.verdict(Self.reply(modifiers: modifiers, extra: extra)) else {
                Issue.record("\(url.prefix(40)) at \(place) was accepted")
                continue
            }
            #expect(refusal.code == "badURL")
            #expect(refusal.message.contains(place))
            #expect(refusal.message.contains(reason))
        }
    }

    @Test("A URL of exactly max bytes is accepted; a Link inside a view is checked as the widgetURL is")
    func urlLimitAndLink() throws {
        let longest = "pizza://" + String(repeating: "a", count: ActivityURLCheck.maxBytes - 8)
        #expect(ActivityURLCheck.problem(longest) == nil)
        let quoted = String(decoding: try WireCoding.encode(longest), as: UTF8.self)
        #expect((try? Self.verdict(Self.reply(extra: #","widgetURL":"# + quoted)).get()) != nil)

        let link = #"{"version":1,"root":{"type":"vstack","children":[{"type":"link","url":"no scheme here","#
            + #""label":{"type":"text","runs":[{"text":"Open"}]}}]}}"#
        var json = #"{"lockScreen":"# + Self.text + #","compactLeading":"# + Self.text + #","compactTrailing":"# + Self.text
        json += #","minimal":"# + Self.text + #","expanded":[{"position":"bottom","view":"# + link + "}]}"
        guard case .failure(let refusal) = Self.verdict(Data(json.utf8)) else {
            Issue.record("a Link without a URL was accepted")
            return
        }
        #expect(refusal.code == "badURL")
        #expect(refusal.message.contains("expanded.bottom view has a Link"))
    }
}
