import ActivityKit
import Foundation
import PizzaDeliveryShared
import PizzaDeliveryWidgets
import Testing
import WidgetHostProtocol
import WidgetKit

@Suite("activity/render: the pizza delivery's Lock Screen and Dynamic Island")
struct ActivityRenderTests {
    private let server: ExtensionServer
    init() throws { server = try ExtensionServer(widget: PizzaDeliveryLiveActivity()) }

    private func ask(_ params: JSONValue) async throws -> JSONRPCMessage {
        let line = try JSONRPCMessage.request(id: .number(1), method: "activity/render", params: params).encodedLine()
        let reply = try #require(await server.handle(line: Array(line)))
        guard case .message(let message) = JSONRPCMessage.parse(reply) else {
            Issue.record("the reply does not parse")
            throw CancellationError()
        }
        return message
    }

    private func text(_ archive: ViewArchive) throws -> String { String(decoding: try WireCoding.encode(archive), as: UTF8.self) }

    private let state = PizzaDeliveryAttributes.ContentState(
        status: .onTheWay, estimatedDeliveryTime: Date(timeIntervalSince1970: 1_771_144_200), driverName: "John")

    @Test("The reply has the Lock Screen view and every Dynamic Island presentation")
    func pizza() async throws {
        let params = ActivityRenderParams(
            activityId: "act-1", attributesType: "PizzaDeliveryAttributes",
            attributes: try JSONValue(encoding: PizzaDeliveryAttributes(orderNumber: "12345", pizzaType: "Pepperoni")),
            state: try JSONValue(encoding: state), isStale: true)
        guard case .response(_, let value) = try await ask(try JSONValue(encoding: params)) else {
            Issue.record("activity/render answered with an error")
            return
        }
        let result = try value.decode(as: ActivityRenderResult.self)
        #expect(try text(result.lockScreen).contains("Order #12345 · Pepperoni"))
        #expect(try text(result.lockScreen).contains("John is on the way"))
        #expect(try text(result.lockScreen).contains("Out of date"))
        #expect(try text(result.compactLeading).contains("timer"))
        #expect(try text(result.compactTrailing).contains("\"style\":\"timer\""))
        #expect(try text(result.minimal).contains("timer"))
        #expect(result.expanded.map(\.position) == ["leading", "trailing", "center", "bottom"])
        #expect(try text(result.expanded[1].view).contains("remaining"))
        #expect(try text(result.expanded[3].view).contains("John is on the way"))
    }

    @Test("The tints and the island's URL travel with the views: activityBackgroundTint, activitySystemActionForegroundColor, keylineTint, widgetURL")
    func tintsAndURL() async throws {
        let params = ActivityRenderParams(
            activityId: "act-1", attributesType: "PizzaDeliveryAttributes",
            attributes: try JSONValue(encoding: PizzaDeliveryAttributes(orderNumber: "12345", pizzaType: "Pepperoni")),
            state: try JSONValue(encoding: state))
        guard case .response(_, let value) = try await ask(try JSONValue(encoding: params)) else {
            Issue.record("activity/render answered with an error")
            return
        }
        let result = try value.decode(as: ActivityRenderResult.self)
        #expect(result.keylineTint == ArchiveColor(.system("orange")))
        #expect(result.widgetURL == "pizza://order/12345")
        let modifiers = result.lockScreen.root.modifiers
        #expect(modifiers.contains(.activityBackgroundTint(ArchiveColor(.system("black")))))
        #expect(modifiers.contains(.activitySystemActionForegroundColor(ArchiveColor(.system("white")))))
        // Encoded again, the result reads back the same (the archive round trip).
        #expect(try WireCoding.decode(ActivityRenderResult.self, from: try WireCoding.encode(result)) == result)
    }

    @Test("An unknown attributes type, or a state that does not decode, is -32602 with the reason")
    func badParams() async throws {
        let unknown = ActivityRenderParams(
            activityId: "a", attributesType: "SportsAttributes", attributes: [:], state: [:])
        guard case .errorResponse(_, let error) = try await ask(try JSONValue(encoding: unknown)) else {
            Issue.record("an unknown type was answered")
            return
        }
        #expect(error.code == JSONRPCError.invalidParamsCode)
        #expect(error.message.contains("PizzaDeliveryAttributes"))
        let badState = ActivityRenderParams(
            activityId: "a", attributesType: "PizzaDeliveryAttributes",
            attributes: ["orderNumber": "1", "pizzaType": "Margherita"], state: ["status": "lost"])
        guard case .errorResponse(_, let stateError) = try await ask(try JSONValue(encoding: badState)) else {
            Issue.record("a bad state was answered")
            return
        }
        #expect(stateError.code == JSONRPCError.invalidParamsCode)
        guard case .errorResponse(_, let missing) = try await ask(["activityId": "a"]) else {
            Issue.record("params without attributes were answered")
            return
        }
        #expect(missing.message.contains("attributesType"))
    }
}

