import Foundation
import Testing
import WidgetHostProtocol

/// Protocol version 2's entries: `view` beside or instead of `content`, decoded without ever
/// failing the reply on what is inside the view.
@Suite struct ViewArchiveCodingTests {
    func entry(_ json: String) throws -> TimelineEntryPayload {
        try WireCoding.decode(TimelineEntryPayload.self, from: Data(json.utf8))
    }

    @Test func contentOnlyEntriesStayValid() throws {
        let old = try entry(#"{"date":"2026-02-15T08:00:00Z","content":{"names":["Ada"]}}"#)
        #expect(old.view == nil && old.content == ["names": ["Ada"]])
    }

    @Test func aViewWithoutContentReadsContentAsNull() throws {
        let new = try entry(#"{"date":"2026-02-15T08:00:00Z","view":{"version":1,"family":"systemSmall","root":{"type":"text","runs":[{"text":"Hi"}]}}}"#)
        #expect(new.content == .null)
        #expect(new.view?.root == ViewNode(.text([ArchiveTextRun(.string("Hi"))])))
    }

    @Test(arguments: [#""a string""#, "[1,2]", "42", "true"])
    func aViewThatIsNotAnObjectIsAnUnknownRoot(_ view: String) throws {
        let decoded = try entry(#"{"date":"2026-02-15T08:00:00Z","view":\#(view)}"#)
        #expect(decoded.view?.root.type == "(view is not an object)")
    }

    @Test func unknownAndMalformedNodesDecodeAsUnknown() throws {
        let decoded = try entry(
            #"""
            {"date":"2026-02-15T08:00:00Z","view":{"root":{"type":"vstack","children":[
              {"type":"teleporter"}, 7, {"no":"type"}, {"type":"text","runs":5},
              {"type":"image"}, {"type":"link"}, {"type":"fill"},
              {"type":"text","runs":[{"text":"ok"}],"modifiers":[{"type":"glow"},3,{"type":"padding","top":-5}]}]}}}
            """#)
        guard case .vstack(_, _, let children)? = decoded.view?.root.content else {
            Issue.record("not a vstack")
            return
        }
        #expect(children.map(\.type) == ["teleporter", "(not an object)", "(missing type)", "text", "image", "link", "fill", "text"])
        #expect(children.last?.modifiers == [.unknown(type: "glow"), .unknown(type: "(not an object)"), .padding(top: 0, leading: 0, bottom: 0, trailing: 0)])
        // A known type of the wrong shape is unknown too (named by its type).
        if case .unknown = children[3].content {} else { Issue.record("text with runs 5 decoded") }
    }

    @Test func protocolVersionIsThree() {
        #expect(WidgetHostProtocol.protocolVersion == 3)
        #expect(InitializeParams().protocolVersion == 3)
    }
}
