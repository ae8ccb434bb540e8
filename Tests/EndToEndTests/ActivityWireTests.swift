import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol

/// The activity methods' params as the daemon reads them off the socket: a missing field, a
/// wrong type or a non-object attributes value is refused with the field named; pushes out of
/// order are ignored as ActivityKit ignores them.
@Suite("Live Activity params and push order over the wire, real daemon", .serialized)
struct ActivityWireTests {
    static let request: JSONValue = [
        "app": "com.example.pizza", "attributesType": "PizzaDeliveryAttributes",
        "attributes": ["orderNumber": "12345", "pizzaType": "Pepperoni"], "content": ["state": ["status": "preparing"]],
        "pushType": "token",
    ]

    static func error(_ client: ControlClient, _ method: ControlMethod, _ params: JSONValue) -> JSONRPCError? {
        do {
            let _: JSONValue = try client.call(method, params: params)
            return nil
        } catch {
            if case .rpc(let rpc) = error { return rpc }
            Issue.record("\(method.rawValue): \(error)")
            return nil
        }
    }

    static func replacing(_ key: String, with value: JSONValue?, in object: JSONValue) -> JSONValue {
        guard case .object(var fields) = object else { return object }
        fields[key] = value
        return .object(fields)
    }

    @Test(
        "A bad activity/request, activity/update, activity/end or push/activity is refused naming the field",
        arguments: [
            (ControlMethod.activityRequest, replacing("attributes", with: "Pepperoni", in: request), -32000,
             "invalid: attributes is a string (\"Pepperoni\"), not an object"),
            (.activityRequest, replacing("content", with: ["state": [1, 2]], in: request), -32000,
             "invalid: content.state is an array, not an object"),
            (.activityRequest, replacing("attributes", with: nil, in: request), -32602, "activity/request: params is missing \"attributes\""),
            (.activityRequest, replacing("content", with: ["staleDate": "2026-02-15T00:00:00Z"], in: request), -32602,
             "activity/request: content is missing \"state\""),
            (.activityRequest, replacing("app", with: 7, in: request), -32602, "activity/request: app should be String"),
            (.activityUpdate, ["id": "a1", "content": ["state": "late"]], -32000, "invalid: content.state is a string (\"late\"), not an object"),
            (.activityUpdate, ["id": "a1"], -32602, "activity/update: params is missing \"content\""),
            (.activityEnd, ["id": "a1", "dismissalPolicy": ["type": "later"]], -32602,
             "dismissal policy type \"later\" is not one of default, immediate, after"),
            (.activityEnd, ["id": "a1", "dismissalPolicy": ["type": "after"]], -32602, "activity/end: dismissalPolicy is missing \"date\""),
            (.pushActivity, ["token": "ab", "priority": "10", "payload": ["aps": [:]]], -32602, "push/activity: priority should be Int"),
            (.pushActivity, ["token": "ab", "priority": 10], -32602, "push/activity: params is missing \"payload\""),
            (.pushWidget, [:], -32602, "push/widget"),
        ] as [(ControlMethod, JSONValue, Int, String)])
    func badParams(method: ControlMethod, params: JSONValue, code: Int, message: String) throws {
        let daemon = try RealDaemon()
        let client = try ControlClient(socketPath: daemon.socket)
        let _: ActivityInfo = try client.call(.activityRequest, params: Self.request)
        let error = try #require(Self.error(client, method, params), "\(method.rawValue) \(params) was accepted")
        #expect(error.code == code)
        #expect(error.message.contains(message), "\(error.message)")
        // Nothing changed.
        let list: ActivityListResult = try client.call(.activityList, params: ActivityListParams())
        #expect(list.activities.map(\.content.state) == [["status": "preparing"]])
    }

    @Test("widgethost push activity --timestamp older than the last applied update is answered ignored (outdatedTimestamp)")
    func outOfOrder() throws {
        let daemon = try RealDaemon()
        let client = try ControlClient(socketPath: daemon.socket)
        let started: ActivityInfo = try client.call(.activityRequest, params: Self.request)
        let token = try #require(started.pushToken)
        let state = daemon.directory + "/state.json"
        try #"{"status":"onTheWay"}"#.write(toFile: state, atomically: true, encoding: .utf8)
        let newer = try daemon.cli("push", "activity", token, "--content-state", state, "--timestamp", "2026-02-15T12:10:00Z")
        #expect(newer.stdout.contains("a1  update delivered"), "\(newer.stdout) \(newer.stderr)")
        try #"{"status":"preparing"}"#.write(toFile: state, atomically: true, encoding: .utf8)
        let older = try daemon.cli("push", "activity", token, "--content-state", state, "--timestamp", "2026-02-15T12:09:00Z")
        #expect(older.status == 0)
        #expect(older.stdout.contains("a1  update ignored (outdatedTimestamp) — 2 of 10 priority-10 pushes in the last hour"), "\(older.stdout)")
        let story = try daemon.cli("activity", "a1")
        #expect(story.stdout.contains("is older than the last applied update's 2026-02-15T12:10:00Z"), "\(story.stdout)")
        let detail: ActivityDetailResult = try client.call(.activityGet, params: ActivityIDParams(id: "a1"))
        #expect(detail.activity.content.state == ["status": "onTheWay"])
        #expect(detail.history.map(\.event) == ["requested", "updated", "ignored"])
    }
}
