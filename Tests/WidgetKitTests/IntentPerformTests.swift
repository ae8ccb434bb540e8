import AppIntents
import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit

@Suite("intent/perform: the SDK runs an intent for the host", .serialized)
struct IntentPerformTests {
    let channel = Channel(try! ExtensionServer(bundle: IntentWidgetBundle()))

    func perform(_ invocation: IntentInvocation, isOn: Bool? = nil) async throws -> IntentPerformResult {
        let params = IntentPerformParams(
            intent: invocation, kind: "Tasks", widgetId: "w1", now: Date(timeIntervalSince1970: 1_771_142_400), isOn: isOn)
        return try await channel.result("intent/perform", try JSONValue(encoding: params), as: IntentPerformResult.self)
    }

    @Test("An intent travels by its full Swift name, with its values and title")
    func invocation() {
        let invocation = _IntentRuntime.invocation(MarkDoneIntent(task: "water"))
        #expect(
            invocation
                == IntentInvocation(
                    type: "WidgetKitTests.MarkDoneIntent", title: "Mark done",
                    parameters: ["task": "water", "everything": false]))
    }

    @Test("perform() runs with the intent's values; the WidgetCenter calls it makes come back in the reply, not over the socket")
    func reloadsCaptured() async throws {
        let result = try await perform(_IntentRuntime.invocation(MarkDoneIntent(task: "water the plants")))
        #expect(result == IntentPerformResult(reloadKinds: ["Tasks", "Streaks"]))
        #expect(IntentLedger.shared.tasks.contains("water the plants"))
        let all = try await perform(_IntentRuntime.invocation(MarkDoneIntent(task: "sweep", everything: true)))
        #expect(all == IntentPerformResult(reloadKinds: ["Tasks", "Streaks"], reloadAll: true))
        // Outside an intent the calls go to the daemon (none here: they fail and say so).
        #expect(_IntentReloads.current == nil)
    }

    @Test("A perform() that throws is a failed intent with its reason, not a protocol error")
    func thrown() async throws {
        let result = try await perform(_IntentRuntime.invocation(MarkDoneIntent(task: "read-only")))
        #expect(result == IntentPerformResult(error: "the task list is read-only"))
        #expect(!IntentLedger.shared.tasks.contains("read-only"))
    }

    @Test("A toggle's new state reaches a SetValueIntent's value")
    func toggle() async throws {
        let invocation = _IntentRuntime.invocation(SetLampIntent())
        #expect(invocation.parameters == ["room": "hall"])
        #expect(try await perform(invocation, isOn: true) == IntentPerformResult())
        #expect(try await perform(invocation, isOn: false) == IntentPerformResult())
        let tail = IntentLedger.shared.tasks.filter { $0.hasPrefix("lamp") }.suffix(2)
        #expect(Array(tail) == ["lamp hall on", "lamp hall off"])
    }

    @Test("A process that never archived the intent still finds it by name, nested types too")
    func freshProcess() async throws {
        #expect(try await perform(IntentInvocation(type: "WidgetKitTests.FreshIntent", parameters: ["word": "hi"])) == IntentPerformResult())
        #expect(try await perform(IntentInvocation(type: "WidgetKitTests.Outer.NestedIntent")) == IntentPerformResult())
        #expect(IntentLedger.shared.tasks.contains("fresh hi"))
        #expect(IntentLedger.shared.tasks.contains("nested"))
    }

    @Test(
        "An intent the extension does not have, or values that do not fit, fail the intent and say why",
        arguments: [
            (IntentInvocation(type: "WidgetKitTests.NoSuchIntent"), "this extension has no intent type WidgetKitTests.NoSuchIntent"),
            (IntentInvocation(type: "Foundation.Date"), "this extension has no intent type Foundation.Date"),
            (IntentInvocation(type: "$s3foo"), "this extension has no intent type $s3foo"),
            (IntentInvocation(type: "WidgetKitTests.MarkDoneIntent", parameters: ["task": 3]),
             "MarkDoneIntent.task: expected a string, got 3"),
            (IntentInvocation(type: "WidgetKitTests.MarkDoneIntent"), "MarkDoneIntent.task (Task) needs a value and has no default"),
        ])
    func refused(invocation: IntentInvocation, message: String) async throws {
        let result = try await perform(invocation)
        #expect(result.error?.contains(message) == true, "\(String(describing: result.error))")
        #expect(result.reloadKinds == nil)
    }

    @Test("intent/perform without an intent is -32602")
    func badParams() async throws {
        let error = try await channel.error("intent/perform", ["kind": "Tasks"])
        #expect(error.code == JSONRPCError.invalidParamsCode)
        #expect(error.message.contains("intent/perform needs params {intent: {type, parameters}, kind, widgetId?, now, isOn?}"))
    }

    @Test("widgetConfigurationIntent(of:) rebuilds an instance's intent, entities included; nil without one or for another type")
    func widgetInfoIntent() throws {
        let info = WidgetInfo(
            id: "w1", kind: "EveryType", family: .systemSmall, app: "com.example", extension: "com.example.widgets",
            configuration: ["name": "Ada", "due": "2026-03-01T09:00:00Z", "mainProject": "p2", "count": 9])
        let intent = try #require(info.widgetConfigurationIntent(of: EveryTypeIntent.self))
        #expect(intent.name == "Ada" && intent.count == 9 && intent.mainProject.name == "Kitchen" && intent.project == nil)
        var plain = info
        plain.configuration = nil
        #expect(plain.widgetConfigurationIntent(of: EveryTypeIntent.self) == nil)
        var other = info
        other.configuration = ["word": "hi"]
        #expect(other.widgetConfigurationIntent(of: EveryTypeIntent.self) == nil)
    }
}
