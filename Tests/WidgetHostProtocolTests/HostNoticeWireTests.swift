import Foundation
import Testing
import WidgetHostProtocol

/// The core's notices are an enum; `subscribe`, `jq` filters and the harness's `--json` log
/// see the flat objects they always saw. Each line below is what the flat struct wrote.
@Suite("Notices on the wire")
struct HostNoticeWireTests {
    static let t0 = Date(timeIntervalSince1970: 1_771_142_400)  // 2026-02-15T08:00:00Z
    static let widget = NoticeWidget(id: "w1", kind: "BirthdayHomeWidget", extension: "com.birthdayreminders.widget")
    static let entry = TimelineEntryPayload(date: t0, content: ["text": "Ada"])
    static let subject = #""extension":"com.birthdayreminders.widget","kind":"BirthdayHomeWidget""#

    static let cases: [(HostNotice, String)] = [
        (
            .widgetAdded(widget, at: t0),
            #"{"at":"2026-02-15T08:00:00Z",\#(subject),"type":"widgetAdded","widgetId":"w1"}"#
        ),
        (
            .widgetRemoved(widget, at: t0),
            #"{"at":"2026-02-15T08:00:00Z",\#(subject),"type":"widgetRemoved","widgetId":"w1"}"#
        ),
        (
            .reloadStarted(widget, at: t0 + 60, charge: .budgeted, requestedAt: t0),
            #"{"at":"2026-02-15T08:01:00Z","budgeted":true,\#(subject),"requestedAt":"2026-02-15T08:00:00Z","#
                + #""type":"reloadStarted","widgetId":"w1"}"#
        ),
        (
            .reloadStarted(widget, at: t0, charge: .exempt(.added), requestedAt: t0),
            #"{"at":"2026-02-15T08:00:00Z","budgeted":false,"exemption":"added",\#(subject),"#
                + #""requestedAt":"2026-02-15T08:00:00Z","type":"reloadStarted","widgetId":"w1"}"#
        ),
        (
            .reloadStarted(widget, at: t0, charge: .prepaid, requestedAt: t0 - 30),
            #"{"at":"2026-02-15T08:00:00Z","budgeted":false,"exemption":"prepaid",\#(subject),"#
                + #""requestedAt":"2026-02-15T07:59:30Z","type":"reloadStarted","widgetId":"w1"}"#
        ),
        (
            .reloadCoalesced(widget, at: t0, budgeted: true, until: t0 + 300, reason: .minInterval),
            #"{"at":"2026-02-15T08:00:00Z","budgeted":true,\#(subject),"reason":"minInterval","#
                + #""type":"reloadCoalesced","until":"2026-02-15T08:05:00Z","widgetId":"w1"}"#
        ),
        (
            .reloadCoalesced(widget, at: t0, budgeted: false, until: nil, reason: .reloadInProgress),
            #"{"at":"2026-02-15T08:00:00Z","budgeted":false,\#(subject),"reason":"reloadInProgress","#
                + #""type":"reloadCoalesced","widgetId":"w1"}"#
        ),
        (
            .reloadDeferred(
                widget, at: t0, budgeted: true, requestedAt: t0 - 60, until: t0 + 86_400, reason: .budgetExhausted),
            #"{"at":"2026-02-15T08:00:00Z","budgeted":true,\#(subject),"reason":"budgetExhausted","#
                + #""requestedAt":"2026-02-15T07:59:00Z","type":"reloadDeferred","until":"2026-02-16T08:00:00Z","#
                + #""widgetId":"w1"}"#
        ),
        (
            .reloadDeferred(
                widget, at: t0, budgeted: true, requestedAt: t0, until: nil, reason: .extensionUnavailable),
            #"{"at":"2026-02-15T08:00:00Z","budgeted":true,\#(subject),"reason":"extensionUnavailable","#
                + #""requestedAt":"2026-02-15T08:00:00Z","type":"reloadDeferred","widgetId":"w1"}"#
        ),
        (
            .reloadFinished(
                widget, at: t0, budgeted: true, result: .success, durationMs: 12, footprintBytes: 4_194_304,
                detail: nil),
            #"{"at":"2026-02-15T08:00:00Z","budgeted":true,"durationMs":12,"extension":"com.birthdayreminders.widget","#
                + #""footprintBytes":4194304,"kind":"BirthdayHomeWidget","result":"success","type":"reloadFinished","#
                + #""widgetId":"w1"}"#
        ),
        (
            .reloadFinished(
                widget, at: t0, budgeted: false, result: .timedOut, durationMs: 2500.5, footprintBytes: nil,
                detail: "no reply after 2.50s"),
            #"{"at":"2026-02-15T08:00:00Z","budgeted":false,"detail":"no reply after 2.50s","durationMs":2500.5,"#
                + #"\#(subject),"result":"timedOut","type":"reloadFinished","widgetId":"w1"}"#
        ),
        (
            .entryChanged(widget, at: t0, entry: entry, source: .timeline),
            #"{"at":"2026-02-15T08:00:00Z","detail":"timeline","entry":{"content":{"text":"Ada"},"#
                + #""date":"2026-02-15T08:00:00Z"},\#(subject),"type":"entryChanged","widgetId":"w1"}"#
        ),
        (
            .entryChanged(widget, at: t0, entry: nil, source: .none),
            #"{"at":"2026-02-15T08:00:00Z","detail":"none",\#(subject),"type":"entryChanged","widgetId":"w1"}"#
        ),
        (
            .diagnostic(widget, Diagnostic(at: t0, code: "emptyTimeline", severity: .warning, message: "no entries")),
            #"{"at":"2026-02-15T08:00:00Z","diagnostic":{"at":"2026-02-15T08:00:00Z","code":"emptyTimeline","#
                + #""message":"no entries","severity":"warning"},\#(subject),"type":"diagnostic","widgetId":"w1"}"#
        ),
        (
            .snapshotReceived(widget, at: t0, entry: entry),
            #"{"at":"2026-02-15T08:00:00Z","entry":{"content":{"text":"Ada"},"date":"2026-02-15T08:00:00Z"},"#
                + #"\#(subject),"type":"snapshotReceived","widgetId":"w1"}"#
        ),
        (
            .extensionKilled(
                extension: "com.birthdayreminders.widget", widgetId: "w1", at: t0, result: .memoryLimitExceeded,
                durationMs: 800, footprintBytes: 31_457_280, detail: "footprint 30.0 MiB exceeded limits.memory"),
            #"{"at":"2026-02-15T08:00:00Z","detail":"footprint 30.0 MiB exceeded limits.memory","durationMs":800,"#
                + #""extension":"com.birthdayreminders.widget","footprintBytes":31457280,"#
                + #""result":"memoryLimitExceeded","type":"extensionKilled","widgetId":"w1"}"#
        ),
        (
            .extensionStopped(extension: "com.birthdayreminders.widget", at: t0, detail: "idle for 30s"),
            #"{"at":"2026-02-15T08:00:00Z","detail":"idle for 30s","extension":"com.birthdayreminders.widget","#
                + #""type":"extensionStopped"}"#
        ),
        (
            .intentStarted(
                extension: "com.lucidpal.widget", widgetId: "w1", control: nil, at: t0, intent: "Remind me",
                button: "b2", isOn: true),
            #"{"at":"2026-02-15T08:00:00Z","button":"b2","extension":"com.lucidpal.widget","intent":"Remind me","#
                + #""isOn":true,"type":"intentStarted","widgetId":"w1"}"#
        ),
        (
            .intentFinished(
                extension: "com.lucidpal.widget", widgetId: "w1", control: nil, at: t0, intent: "Mark Done",
                outcome: .timedOut, durationMs: 5000, detail: "no reply"),
            #"{"at":"2026-02-15T08:00:00Z","detail":"no reply","durationMs":5000,"extension":"com.lucidpal.widget","#
                + #""intent":"Mark Done","outcome":"timedOut","type":"intentFinished","widgetId":"w1"}"#
        ),
        (
            .controlUpdated(
                extension: "com.w8trackr.widget", control: "LogWeightControl", at: t0,
                value: ControlValueResult(isOn: true, title: "Log"), detail: nil),
            #"{"at":"2026-02-15T08:00:00Z","control":"LogWeightControl","extension":"com.w8trackr.widget","#
                + #""type":"controlUpdated","value":{"isOn":true,"title":"Log"}}"#
        ),
        (
            .activity(ActivityNotice(event: .requested, at: t0, activityId: "a1", app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", source: .app, state: .active, detail: "requested")),
            #"{"activity":{"activityId":"a1","app":"com.example.pizza","at":"2026-02-15T08:00:00Z","attributesType":"PizzaDeliveryAttributes","detail":"requested","event":"requested","source":"app","state":"active"},"at":"2026-02-15T08:00:00Z","detail":"requested","extension":"com.example.pizza","type":"activityRequested"}"#
        ),
        (
            .activity(ActivityNotice(event: .updated, at: t0, activityId: "a1", app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", source: .app, state: .active, detail: "updated")),
            #"{"activity":{"activityId":"a1","app":"com.example.pizza","at":"2026-02-15T08:00:00Z","attributesType":"PizzaDeliveryAttributes","detail":"updated","event":"updated","source":"app","state":"active"},"at":"2026-02-15T08:00:00Z","detail":"updated","extension":"com.example.pizza","type":"activityUpdated"}"#
        ),
        (
            .activity(ActivityNotice(event: .throttled, at: t0, activityId: "a1", app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", source: .push10, state: .active, detail: "dropped", budget: PushBudgetUsage(used: 10, limit: 10, frequentUpdates: false), until: t0 + 3600)),
            #"{"activity":{"activityId":"a1","app":"com.example.pizza","at":"2026-02-15T08:00:00Z","attributesType":"PizzaDeliveryAttributes","budget":{"frequentUpdates":false,"limit":10,"used":10},"detail":"dropped","event":"throttled","source":"push10","state":"active","until":"2026-02-15T09:00:00Z"},"at":"2026-02-15T08:00:00Z","detail":"dropped","extension":"com.example.pizza","type":"activityThrottled","until":"2026-02-15T09:00:00Z"}"#
        ),
        (
            .activity(ActivityNotice(event: .ignored, at: t0, activityId: "a1", app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", source: .push5, state: .active, detail: "older", reason: "outdatedTimestamp")),
            #"{"activity":{"activityId":"a1","app":"com.example.pizza","at":"2026-02-15T08:00:00Z","attributesType":"PizzaDeliveryAttributes","detail":"older","event":"ignored","reason":"outdatedTimestamp","source":"push5","state":"active"},"at":"2026-02-15T08:00:00Z","detail":"older","extension":"com.example.pizza","type":"activityIgnored"}"#
        ),
        (
            .activity(ActivityNotice(event: .stale, at: t0, activityId: "a1", app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", source: .app, state: .active, detail: "stale")),
            #"{"activity":{"activityId":"a1","app":"com.example.pizza","at":"2026-02-15T08:00:00Z","attributesType":"PizzaDeliveryAttributes","detail":"stale","event":"stale","source":"app","state":"active"},"at":"2026-02-15T08:00:00Z","detail":"stale","extension":"com.example.pizza","type":"activityStale"}"#
        ),
        (
            .activity(ActivityNotice(event: .ended, at: t0, activityId: "a1", app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", source: .app, state: .active, detail: "ended")),
            #"{"activity":{"activityId":"a1","app":"com.example.pizza","at":"2026-02-15T08:00:00Z","attributesType":"PizzaDeliveryAttributes","detail":"ended","event":"ended","source":"app","state":"active"},"at":"2026-02-15T08:00:00Z","detail":"ended","extension":"com.example.pizza","type":"activityEnded"}"#
        ),
        (
            .activity(ActivityNotice(event: .dismissed, at: t0, activityId: "a1", app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", source: .app, state: .active, detail: "dismissed")),
            #"{"activity":{"activityId":"a1","app":"com.example.pizza","at":"2026-02-15T08:00:00Z","attributesType":"PizzaDeliveryAttributes","detail":"dismissed","event":"dismissed","source":"app","state":"active"},"at":"2026-02-15T08:00:00Z","detail":"dismissed","extension":"com.example.pizza","type":"activityDismissed"}"#
        ),
        (
            .activity(ActivityNotice(event: .refused, at: t0, activityId: nil, app: "com.example.pizza", attributesType: nil, source: .push10, state: nil, detail: "no such token", reason: "BadDeviceToken")),
            #"{"activity":{"app":"com.example.pizza","at":"2026-02-15T08:00:00Z","detail":"no such token","event":"refused","reason":"BadDeviceToken","source":"push10"},"at":"2026-02-15T08:00:00Z","detail":"no such token","extension":"com.example.pizza","type":"activityRefused"}"#
        ),
        (
            .activity(ActivityNotice(event: .rendered, at: t0, activityId: "a1", app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", source: .host, state: .active, detail: "drawn")),
            #"{"activity":{"activityId":"a1","app":"com.example.pizza","at":"2026-02-15T08:00:00Z","attributesType":"PizzaDeliveryAttributes","detail":"drawn","event":"rendered","source":"host","state":"active"},"at":"2026-02-15T08:00:00Z","detail":"drawn","extension":"com.example.pizza","type":"activityRendered"}"#
        ),
    ]

    @Test("Every notice is the flat object it always was, and reads back", arguments: cases)
    func flatForm(notice: HostNotice, text: String) throws {
        #expect(String(decoding: try WireCoding.encode(notice), as: UTF8.self) == text)
        #expect(try WireCoding.decode(HostNotice.self, from: Data(text.utf8)) == notice)
    }

    @Test("A notice's notification line is encoded straight, to the bytes the JSONValue path gave", arguments: cases)
    func notificationLine(notice: HostNotice, text: String) throws {
        let direct = try JSONRPCMessage.notificationLine(method: "event", params: notice)
        let viaValue = try JSONRPCMessage.encodingNotification(method: "event", params: notice).encodedLine()
        #expect(direct == viaValue)
        #expect(String(decoding: direct, as: UTF8.self) == #"{"jsonrpc":"2.0","method":"event","params":"# + text + "}\n")
    }

    @Test("The cases cover every notice type")
    func everyType() {
        #expect(Set(Self.cases.map(\.0.type)) == Set(HostNotice.NoticeType.allCases))
    }

    @Test("Fields a reader does not know are ignored")
    func unknownFieldsIgnored() throws {
        let text = #"{"at":"2026-02-15T08:00:00Z",\#(Self.subject),"type":"widgetAdded","widgetId":"w1","x":1}"#
        #expect(try WireCoding.decode(HostNotice.self, from: Data(text.utf8)) == .widgetAdded(Self.widget, at: Self.t0))
    }

    @Test(
        "A notice without a field its type needs is rejected naming the field",
        arguments: [
            (#"{"at":"2026-02-15T08:00:00Z","type":"widgetAdded","widgetId":"w1","kind":"K"}"#,
             #"a widgetAdded notice needs "extension""#),
            (#"{"at":"2026-02-15T08:00:00Z",\#(subject),"type":"reloadDeferred","widgetId":"w1","budgeted":true,"#
                + #""requestedAt":"2026-02-15T08:00:00Z"}"#,
             #"a reloadDeferred notice needs "reason""#),
            (#"{"at":"2026-02-15T08:00:00Z",\#(subject),"type":"reloadStarted","widgetId":"w1","budgeted":false,"#
                + #""requestedAt":"2026-02-15T08:00:00Z"}"#,
             #"a reloadStarted notice needs "exemption""#),
            (#"{"at":"2026-02-15T08:00:00Z","type":"extensionStopped","extension":"e"}"#,
             #"an extensionStopped notice needs "detail""#),
        ])
    func missingField(text: String, message: String) {
        #expect {
            try WireCoding.decode(HostNotice.self, from: Data(text.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == message
        }
    }

    @Test("An unknown exemption or entry source is rejected naming the value")
    func unknownValues() {
        let started = #"{"at":"2026-02-15T08:00:00Z",\#(Self.subject),"type":"reloadStarted","widgetId":"w1","#
            + #""budgeted":false,"exemption":"bribe","requestedAt":"2026-02-15T08:00:00Z"}"#
        #expect {
            try WireCoding.decode(HostNotice.self, from: Data(started.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.hasPrefix(#""bribe" is not an exemption; one of added, reboot"#)
                && context.debugDescription.hasSuffix("prepaid")
        }
        let changed = #"{"at":"2026-02-15T08:00:00Z","detail":"magic",\#(Self.subject),"type":"entryChanged","widgetId":"w1"}"#
        #expect {
            try WireCoding.decode(HostNotice.self, from: Data(changed.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == #"an entryChanged notice's detail is the entry's source, not "magic""#
        }
    }
}
