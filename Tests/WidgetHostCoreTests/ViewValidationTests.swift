import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// A view of `count` nodes: a VStack of `count - 1` texts.
func wideView(nodes count: Int) -> ViewArchive {
    let texts = (0..<max(0, count - 1)).map { ViewNode(.text([ArchiveTextRun(.string("\($0)"))])) }
    return ViewArchive(family: .systemSmall, root: ViewNode(.vstack(alignment: "center", spacing: nil, children: texts)))
}

/// A view `levels` deep: nested VStacks around one text.
func deepView(levels: Int) -> ViewArchive {
    var node = ViewNode(.text([ArchiveTextRun(.string("deep"))]))
    for _ in 1..<levels { node = ViewNode(.vstack(alignment: "center", spacing: nil, children: [node])) }
    return ViewArchive(family: .systemSmall, root: node)
}

func viewEntry(_ view: ViewArchive, at date: Date = t0) -> TimelineEntryPayload {
    TimelineEntryPayload(date: date, content: .null, view: view)
}

@Suite("View archive validation")
struct ViewValidationTests {
    @Test("At most max_view_nodes nodes; one more refuses the view", arguments: [2000, 10])
    func nodeLimit(maxNodes: Int) {
        let limits = config { $0.limits.maxViewNodes = maxNodes }.limits
        let atLimit = ViewValidation.validate(viewEntry(wideView(nodes: maxNodes)), limits: limits)
        #expect(atLimit.notes.isEmpty)
        #expect(atLimit.entry.view?.rejected == nil)
        #expect(atLimit.entry.view == wideView(nodes: maxNodes))

        let over = ViewValidation.validate(viewEntry(wideView(nodes: maxNodes + 1)), limits: limits)
        #expect(over.notes.map(\.code) == ["viewTooLarge"])
        #expect(over.notes.first?.message.contains("max_view_nodes = \(maxNodes)") == true)
        #expect(over.entry.view?.rejected == "viewTooLarge")
        // The refused tree is not stored.
        #expect(over.entry.view?.root == ViewNode(.empty))
    }

    @Test("At most max_view_depth levels; one more refuses the view", arguments: [64, 8])
    func depthLimit(maxDepth: Int) {
        let limits = config { $0.limits.maxViewDepth = maxDepth }.limits
        #expect(ViewValidation.validate(viewEntry(deepView(levels: maxDepth)), limits: limits).notes.isEmpty)
        let over = ViewValidation.validate(viewEntry(deepView(levels: maxDepth + 1)), limits: limits)
        #expect(over.notes.map(\.code) == ["viewTooDeep"])
        #expect(over.notes.first?.message.contains("max_view_depth = \(maxDepth)") == true)
        #expect(over.entry.view?.rejected == "viewTooDeep")
    }

    @Test("Unknown nodes and modifiers are kept (they show as placeholders) and reported")
    func unknownNodes() throws {
        let json = #"""
            {"version":1,"family":"systemSmall","root":{"type":"vstack","children":[
              {"type":"hologram","beams":3},{"type":"text","runs":[{"text":"hi"}],"modifiers":[{"type":"sparkle"}]},
              {"type":"text","runs":"not an array"}]}}
            """#
        let archive = try WireCoding.decode(ViewArchive.self, from: Data(json.utf8))
        let result = ViewValidation.validate(viewEntry(archive), limits: ExtensionLimits())
        #expect(result.notes.map(\.code) == ["unknownViewNode"])
        let message = try #require(result.notes.first?.message)
        #expect(message.contains("\"hologram\"") && message.contains("\"sparkle\"") && message.contains("\"text\""))
        #expect(result.entry.view?.rejected == nil)
    }

    @Test("Only the host marks a view refused")
    func extensionCannotSetRejected() {
        var view = wideView(nodes: 3)
        view.rejected = "viewTooLarge"
        #expect(ViewValidation.validate(viewEntry(view), limits: ExtensionLimits()).entry.view?.rejected == nil)
    }

    @Test("An entry without a view (protocol version 1) is unchanged")
    func contentOnly() {
        let plain = entry(at: t0, "plain")
        let result = ViewValidation.validate(plain, limits: ExtensionLimits())
        #expect(result.entry == plain && result.notes.isEmpty)
    }

    @Test("Through the host: a refused view is a diagnostic, the timeline and its other entries stay")
    func refusedViewInATimeline() throws {
        var test = TestHost(
            configuration: config { $0.limits.maxViewNodes = 50 },
            provider: { params in
                .timeline(
                    TimelinePayload(
                        entries: [viewEntry(wideView(nodes: 10), at: params.now), viewEntry(wideView(nodes: 51), at: params.now + 3600)],
                        policy: .never))
            })
        let id = test.add()
        let status = test.status(id)
        #expect(status.lastOutcome?.result == .success)
        #expect(status.diagnostics.map(\.code).contains("viewTooLarge"))
        let timeline = try test.host.timeline(of: id, at: test.now).get()
        #expect(timeline.entries[0].view == wideView(nodes: 10))
        #expect(timeline.entries[1].view?.rejected == "viewTooLarge")
    }

    @Test("Through the host: snapshot (and placeholder) views are checked too")
    func snapshot() throws {
        var test = TestHost(configuration: config { $0.limits.maxViewDepth = 4 })
        let id = test.add()
        // Reply to a snapshot by hand with a too-deep view.
        let step = test.host.handle(.snapshotRequested(id, isPreview: true), at: test.now)
        let request = try #require(step.requests.first)
        test.handle(.extensionReplied(request.id, .entry(viewEntry(deepView(levels: 5))), footprintBytes: nil))
        #expect(test.status(id).diagnostics.map(\.code).contains("viewTooDeep"))
        guard case .snapshotReceived(_, _, let snapshot)? = test.notices(.snapshotReceived, id).last else {
            Issue.record("no snapshotReceived notice")
            return
        }
        #expect(snapshot.view?.rejected == "viewTooDeep")
    }
}
