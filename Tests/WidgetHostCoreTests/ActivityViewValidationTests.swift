import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("activity/render replies: the host's checks")
struct ActivityViewValidationTests {
    private func small(_ text: String) -> ViewArchive {
        ViewArchive(family: nil, root: ViewNode(.text([ArchiveTextRun(.string(text))])))
    }

    private func result(lockScreen: ViewArchive? = nil, expanded: [String] = ["leading", "bottom"]) -> ActivityRenderResult {
        ActivityRenderResult(
            lockScreen: lockScreen ?? small("John is on the way"), compactLeading: small("L"), compactTrailing: small("T"),
            minimal: small("M"), expanded: expanded.map { .init(position: $0, view: small($0)) })
    }

    private func bytes(_ value: some Encodable) throws -> Data { try WireCoding.encode(value) }

    @Test("A well-formed reply is accepted as sent, with the host's rejected marks cleared")
    func accepted() throws {
        var sent = result()
        sent.minimal.rejected = "forged"
        let checked = try ActivityViewValidation.validate(resultBytes: try bytes(sent), limits: ExtensionLimits()).get()
        #expect(checked.minimal.rejected == nil)
        #expect(checked.lockScreen == sent.lockScreen)
        #expect(checked.expanded.map(\.position) == ["leading", "bottom"])
    }

    @Test("Malformed JSON, or JSON of another shape, is refused with malformedReply")
    func malformed() {
        for text in ["{\"lockScreen\":", "[]", "{\"lockScreen\":{\"root\":{\"type\":\"text\"}}}"] {
            let verdict = ActivityViewValidation.validate(resultBytes: Data(text.utf8), limits: ExtensionLimits())
            guard case .failure(let refusal) = verdict else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(refusal.code == "malformedReply")
            #expect(refusal.message.contains("not an ActivityRenderResult"))
        }
    }

    @Test("A reply over max_timeline_bytes is refused before decoding; at the limit it is read")
    func oversized() throws {
        let data = try bytes(result())
        var limits = ExtensionLimits()
        limits.maxTimelineBytes = data.count
        #expect((try? ActivityViewValidation.validate(resultBytes: data, limits: limits).get()) != nil)
        limits.maxTimelineBytes = data.count - 1
        guard case .failure(let refusal) = ActivityViewValidation.validate(resultBytes: data, limits: limits) else {
            Issue.record("an oversized reply was accepted")
            return
        }
        #expect(refusal.code == "replyTooLarge")
        #expect(refusal.message.contains("\(data.count) bytes"))
    }

    @Test("An archive past max_view_nodes or max_view_depth refuses the reply, naming the presentation")
    func viewLimits() {
        var limits = ExtensionLimits()
        limits.maxViewNodes = 10
        limits.maxViewDepth = 5
        #expect((try? ActivityViewValidation.validate(result(lockScreen: wideView(nodes: 10)), limits: limits).get()) != nil)
        guard case .failure(let wide) = ActivityViewValidation.validate(result(lockScreen: wideView(nodes: 11)), limits: limits)
        else {
            Issue.record("11 nodes accepted")
            return
        }
        #expect(wide.code == "viewTooLarge")
        #expect(wide.message.contains("lockScreen"))
        #expect((try? ActivityViewValidation.validate(result(lockScreen: deepView(levels: 5)), limits: limits).get()) != nil)
        guard case .failure(let deep) = ActivityViewValidation.validate(result(lockScreen: deepView(levels: 6)), limits: limits)
        else {
            Issue.record("6 levels accepted")
            return
        }
        #expect(deep.code == "viewTooDeep")
    }

    @Test("An expanded region at an unknown position, or twice, is refused")
    func regions() {
        for positions in [["top"], ["leading", "leading"]] {
            guard case .failure(let refusal) = ActivityViewValidation.validate(result(expanded: positions), limits: ExtensionLimits())
            else {
                Issue.record("\(positions) accepted")
                continue
            }
            #expect(refusal.code == "badRegion")
        }
    }
}
