import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol
@testable import WidgetHostDaemon

/// `status`'s cached bytes are always the bytes encoding the status computed now gives: a
/// cache that serves a stale status is a bug. Every check below compares the cache's answer
/// with `WireCoding.encode(StatusResult(now:widgets:))` of the same instant.
@Suite("status: the encoded reply's cache")
struct StatusReplyCacheTests {
    static let t0 = Date(timeIntervalSince1970: 1_771_142_400)
    static let descriptor = ExtensionDescriptor(
        id: "com.example.app.widget",
        widgets: [WidgetDescriptor(kind: "K", displayName: "K", description: "k", supportedFamilies: [.systemSmall, .systemMedium])])

    /// The cache as the daemon uses it (invalidated after every step), beside the encoder.
    final class Checker {
        let cache = StatusReplyCache()
        var checks = 0

        func expectFresh(_ host: WidgetHost, at now: Date, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let widgets = try host.status(at: now).get()
            let fresh = Array(try WireCoding.encode(StatusResult(now: now, widgets: widgets)))
            // Twice: the second answer comes from the cache when nothing changed.
            for _ in 0..<2 {
                let cached = try cache.result(now: now, widgets: widgets)
                #expect(String(decoding: cached, as: UTF8.self) == String(decoding: fresh, as: UTF8.self), sourceLocation: sourceLocation)
            }
            for status in widgets {
                let one = try host.status(of: WidgetID(status.widget.id), at: now).get()
                let cached = try cache.result(now: now, widgets: one, everyWidget: false)
                #expect(cached == Array(try WireCoding.encode(StatusResult(now: now, widgets: one))), sourceLocation: sourceLocation)
            }
            checks += 1
        }
    }

    /// A core with one extension; its requests are answered at once unless held.
    struct Model {
        var host = WidgetHost(configuration: HostConfiguration())
        var now = StatusReplyCacheTests.t0
        var outstanding: [ExtensionRequest] = []
        let checker = Checker()

        @discardableResult
        mutating func apply(_ event: HostEvent) -> HostReply? {
            let step = host.handle(event, at: now)
            checker.cache.invalidate()
            for case .send(let request) in step.effects { outstanding.append(request) }
            return step.reply
        }

        /// Answers every outstanding request: entries for placeholders and snapshots, a
        /// three-entry timeline (a minute apart, reload after ten minutes) for timelines.
        mutating func answerAll() {
            while !outstanding.isEmpty {
                let request = outstanding.removeFirst()
                let entry = TimelineEntryPayload(date: now, content: ["text": .string("at \(now.timeIntervalSince1970)")])
                switch request.call {
                case .placeholder, .snapshot:
                    apply(.extensionReplied(request.id, .entry(entry), footprintBytes: 2_000_000))
                case .timeline:
                    let entries = (0..<3).map {
                        TimelineEntryPayload(date: now + Double($0) * 60, content: ["n": .integer($0)])
                    }
                    apply(
                        .extensionReplied(
                            request.id, .timeline(TimelinePayload(entries: entries, policy: .after(now + 600)), byteCount: 300),
                            footprintBytes: 3_000_000))
                default:
                    apply(.extensionFailed(request.id, .crashed("not in this test")))
                }
            }
        }

        /// Checks now, and at instants where a status changes with time alone: each entry's
        /// date and a microsecond either side, the next deadline, a day later (the ledger's window).
        func checkAround() throws {
            try checker.expectFresh(host, at: now)
            var instants: [Date] = [now + 0.5, now + 59.999_999, now + 60, now + 60.000_001, now + 120, now + 600, now + 86_401]
            if let deadline = host.nextDeadline { instants += [deadline - 0.000_001, deadline, deadline + 0.000_001] }
            for instant in instants where instant >= now { try checker.expectFresh(host, at: instant) }
            // And back at now: a later answer in the cache must not be served for an earlier time.
            try checker.expectFresh(host, at: now)
        }
    }

    @Test("After each kind of event and as time passes, the cached bytes are the encoder's")
    func everyChangeAndTimePassing() throws {
        var model = Model()
        model.apply(.hostStarted(bootID: "b"))
        try model.checkAround()
        model.apply(.catalogChanged([Self.descriptor]))
        let added = model.apply(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        guard case .widgetAdded(let first)? = added else { Issue.record("\(String(describing: added))"); return }
        let id = WidgetID(first.widget.id)
        try model.checkAround()  // added, placeholder requested: stale, reload pending
        model.answerAll()
        try model.checkAround()
        model.apply(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemMedium)))
        try model.checkAround()
        model.answerAll()
        try model.checkAround()

        for event: HostEvent in [
            .viewRecorded(id),
            .reloadRequested(ReloadRequest(.kind("K", app: nil))),
            .reloadRequested(ReloadRequest(.widget(id), origin: .userInteraction)),
            .snapshotRequested(id, isPreview: false),
            .significantTimeChange,
            .deviceChanged(DeviceSettings(locale: "de_DE")),
            .widgetConfigured(id, IntentValues()),
            .optionsRequested(kind: "K", parameter: "p", app: nil),
            .tapped(TapRequest(widget: id, button: "b")),
            .controlTapped(kind: "C", app: nil),
            .controlsReloadRequested(kind: nil, app: nil),
            .activity(.end(ActivityEndParams(id: "none"))),
            .activity(.widgetPush(WidgetPushParams(token: "none"))),
        ] {
            model.now += 7
            model.apply(event)
            try model.checkAround()
            if let request = model.outstanding.first {
                model.apply(.footprintSampled(request.id, bytes: 4_000_000))
                try model.checkAround()
            }
            model.answerAll()
            try model.checkAround()
        }

        // A reload that fails, then one that times out: backoff, last outcome, diagnostics.
        model.now += 400
        model.apply(.reloadRequested(ReloadRequest(.widget(id), origin: .userInteraction)))
        try model.checkAround()
        for request in model.outstanding { model.apply(.extensionFailed(request.id, .crashed("exit 1"))) }
        model.outstanding.removeAll()
        try model.checkAround()
        model.now += 30
        model.apply(.reloadRequested(ReloadRequest(.widget(id), origin: .userInteraction)))
        for request in model.outstanding { model.apply(.extensionFailed(request.id, .timedOut(elapsed: 5))) }
        model.outstanding.removeAll()
        try model.checkAround()

        // Deadlines: the policy's reload, the backoff's end, an hour of them.
        for _ in 0..<20 {
            guard let deadline = model.host.nextDeadline else { break }
            model.now = max(model.now, deadline)
            model.apply(.deadlineReached)
            try model.checkAround()
            model.answerAll()
            try model.checkAround()
        }

        model.apply(.widgetRemoved(id))
        try model.checkAround()
        model.apply(.catalogChanged([]))
        try model.checkAround()
        #expect(model.checker.checks > 300)
        #expect(model.checker.cache.reused > 0)
    }

    /// One widget's status with each field changed in turn, in one generation (as time alone
    /// could change it): a different status is never answered with the cached bytes.
    @Test("A status that differs in any field is encoded again, even with no step between")
    func everyFieldCounts() throws {
        let now = Self.t0
        let base = Self.status(now: now)
        var variants: [WidgetStatus] = []
        func variant(_ change: (inout WidgetStatus) -> Void) {
            var status = base
            change(&status)
            variants.append(status)
        }
        variant { $0.widget.family = .systemMedium }
        variant { $0.widget.configuration = IntentValues() }
        variant { $0.addedAt += 1 }
        variant { $0.budget.used += 1 }
        variant { $0.budget.limit -= 1 }
        variant { $0.budget.engagement = 0.25 }
        variant { $0.budget.views += 1 }
        variant { $0.budget.learning.toggle() }
        variant { $0.budget.pinned.toggle() }
        variant { $0.budget.enforced.toggle() }
        variant { $0.budget.ledger.append(now) }
        variant { $0.budget.nextFreeSlot = now + 1 }
        variant { $0.nextReload.at = now + 1 }
        variant { $0.nextReload.at = nil }
        variant { $0.nextReload.cause = "requested" }
        variant { $0.nextReload.budgeted.toggle() }
        variant { $0.nextReload.deferredBy = .minInterval }
        variant { $0.reloadRunning.toggle() }
        variant { $0.lastOutcome = nil }
        variant { $0.lastOutcome?.detail = "x" }
        variant { $0.currentEntry = CurrentEntry(source: .placeholder, entry: nil) }
        variant { $0.currentEntry.entry?.content = ["text": "changed"] }
        variant { $0.policy = .never }
        variant { $0.staleSince = now - 10 }
        variant { $0.staleSeconds = 10 }
        variant { $0.backoff.consecutiveFailures += 1 }
        variant { $0.backoff.until = now + 60 }
        variant { $0.diagnostics.append(Diagnostic(at: now, code: "c", severity: .warning, message: "m")) }
        let cache = StatusReplyCache()
        for status in [base] + variants + [base] {
            for at in [now, now + 1] {
                var moved = status
                if status.budget.nextFreeSlot == now { moved.budget.nextFreeSlot = at }
                let cached = try cache.result(now: at, widgets: [moved])
                #expect(cached == Array(try WireCoding.encode(StatusResult(now: at, widgets: [moved]))))
            }
        }
        #expect(cache.reused > 0)
    }

    /// The fields written in per request: one that was `now` and no longer is, or one that
    /// becomes `now`, is encoded again (the entry remembers which were `now`), in one generation.
    @Test("nextFreeSlot and nextReload.at becoming now, or ceasing to be, are encoded again")
    func nowFieldsFlip() throws {
        let t = Self.t0
        let cache = StatusReplyCache()
        // (now, nextFreeSlot, nextReload.at) in turn, with nothing else changing.
        let steps: [(Date, Date, Date?)] = [
            (t, t, t + 600), (t + 1, t, t + 600), (t + 1, t + 1, t + 600), (t + 2, t + 2, t + 2), (t + 3, t + 2, t + 2),
            (t + 3, t + 3, t + 3), (t + 4, t + 4, nil), (t + 5, t + 6, t + 5), (t + 6, t + 6, t + 5), (t + 7, t + 7, t + 7),
        ]
        for (now, slot, at) in steps + steps.reversed() {
            var status = Self.status(now: t)
            status.budget.nextFreeSlot = slot
            status.nextReload.at = at
            for _ in 0..<2 {
                let cached = try cache.result(now: now, widgets: [status])
                #expect(cached == Array(try WireCoding.encode(StatusResult(now: now, widgets: [status]))), "now \(now), slot \(slot), at \(String(describing: at))")
            }
        }
        #expect(cache.reused > 0)
    }

    @Test("An answer the caller still holds is not written over by the next (the cache reuses its array)")
    func heldAnswer() throws {
        let cache = StatusReplyCache()
        let first = try cache.result(now: Self.t0, widgets: [Self.status(now: Self.t0)])
        let second = try cache.result(now: Self.t0 + 1, widgets: [Self.status(now: Self.t0 + 1), Self.status(now: Self.t0, id: "w2")])
        #expect(first == Array(try WireCoding.encode(StatusResult(now: Self.t0, widgets: [Self.status(now: Self.t0)]))))
        #expect(second != first)
        let third = try cache.result(now: Self.t0, widgets: [Self.status(now: Self.t0)])
        #expect(third == first)
    }

    @Test("A string holding the placeholder's text, and a negative zero, are encoded, not spliced")
    func placeholderLookalikes() throws {
        let now = Self.t0
        let text = RFC3339.format(StatusReplyCache.placeholder)
        var status = Self.status(now: now)
        status.currentEntry.entry?.content = ["a": .string("x\"\(text)"), "b": .string("\"\(text)\"")]
        var negative = Self.status(now: now)
        negative.lastOutcome = LastOutcome(result: .success, startedAt: now, finishedAt: now - 0.0001, peakFootprintBytes: nil, detail: nil)
        let cache = StatusReplyCache()
        for widgets in [[status], [negative], [status, negative], [status]] {
            for at in [now, now + 1, now] {
                let moved = widgets.map { status -> WidgetStatus in
                    var moved = status
                    moved.budget.nextFreeSlot = at
                    return moved
                }
                let cached = try cache.result(now: at, widgets: moved)
                #expect(cached == Array(try WireCoding.encode(StatusResult(now: at, widgets: moved))))
            }
        }
    }

    @Test("The extensions' sandboxes come first, and a change in them is encoded again")
    func extensions() throws {
        let now = Self.t0
        let cache = StatusReplyCache()
        let widgets = [Self.status(now: now)]
        let sandbox = ExtensionSandbox(
            mode: "auto", applied: [SandboxRuleState(rule: "seccomp", detail: "d")], missing: [])
        var other = sandbox
        other.mode = "off"
        // Equal sandboxes in separate arrays, then changed ones: the bytes follow the value.
        for extensions in [
            nil, [], [ExtensionStatus(id: "a", sandbox: sandbox)], [ExtensionStatus(id: "a", sandbox: sandbox)],
            [ExtensionStatus(id: "a", sandbox: other)], [ExtensionStatus(id: "a", sandbox: sandbox)], nil,
        ] {
            for _ in 0..<2 {
                let cached = try cache.result(now: now, widgets: widgets, extensions: extensions)
                #expect(cached == Array(try WireCoding.encode(StatusResult(now: now, widgets: widgets, extensions: extensions))))
            }
        }
    }

    @Test("invalidate() drops every entry; a widget that is gone leaves the cache")
    func invalidation() throws {
        let now = Self.t0
        let cache = StatusReplyCache()
        let widgets = [Self.status(now: now, id: "w1"), Self.status(now: now, id: "w2")]
        _ = try cache.result(now: now, widgets: widgets)
        #expect(cache.encoded == 2)
        _ = try cache.result(now: now, widgets: widgets)
        #expect(cache.reused == 2)
        cache.invalidate()
        _ = try cache.result(now: now, widgets: widgets)
        #expect(cache.encoded == 4)
        #expect(cache.reused == 2)
        _ = try cache.result(now: now, widgets: [widgets[1]])
        #expect(cache.reused == 3)
        _ = try cache.result(now: now, widgets: widgets)
        #expect(cache.encoded == 5)  // w1 was dropped with the answer that did not list it
    }

    @Test(
        "The response line around cached bytes is the encoder's",
        arguments: [
            JSONRPCID.number(7), .number(0), .number(9), .number(10), .number(99), .number(100), .number(-1),
            .number(-10), .number(123_456_789), .number(Int.max), .number(Int.min), .string("a\"b/c"), .string(""),
        ])
    func responseLine(id: JSONRPCID) throws {
        let result = StatusResult(now: Self.t0, widgets: [Self.status(now: Self.t0)])
        let line = try ControlConnectionHandler.responseLine(id: id, result: Array(WireCoding.encode(result)))
        let expected = try JSONRPCMessage.response(id: id, result: JSONValue(encoding: result)).encodedLine()
        #expect(line == Array(expected))
    }

    static func status(now: Date, id: String = "w1") -> WidgetStatus {
        WidgetStatus(
            widget: WidgetInfo(id: id, kind: "K", family: .systemSmall, app: "com.example.app", extension: "com.example.app.widget"),
            addedAt: now - 3600,
            budget: BudgetStatus(
                used: 1, limit: 70, engagement: 1, views: 2, learning: true, pinned: false, enforced: true,
                ledger: [now - 600], nextFreeSlot: now),
            nextReload: NextReload(at: now + 600, cause: "policy", budgeted: true),
            reloadRunning: false,
            lastOutcome: LastOutcome(
                result: .success, startedAt: now - 600, finishedAt: now - 599.75, peakFootprintBytes: 1000, detail: nil),
            currentEntry: CurrentEntry(source: .timeline, entry: TimelineEntryPayload(date: now - 600, content: ["text": "hi"])),
            policy: .atEnd, staleSince: nil, staleSeconds: 0,
            backoff: BackoffStatus(consecutiveFailures: 0, until: nil), diagnostics: [])
    }
}

/// The daemon's wiring: every event the runtime applies, of every kind, ends the cache's
/// generation (the runtime's `didStep`), whatever the core made of it.
@Suite("status: every event invalidates the daemon's cache", .serialized)
struct StatusReplyCacheRuntimeTests {
    /// One name per `HostEvent` case: a new case does not compile here until it is listed.
    static func kind(of event: HostEvent) -> String {
        switch event {
        case .hostStarted: "hostStarted"
        case .catalogChanged: "catalogChanged"
        case .significantTimeChange: "significantTimeChange"
        case .deadlineReached: "deadlineReached"
        case .widgetAdded: "widgetAdded"
        case .widgetRemoved: "widgetRemoved"
        case .reloadRequested: "reloadRequested"
        case .viewRecorded: "viewRecorded"
        case .snapshotRequested: "snapshotRequested"
        case .activity: "activity"
        case .widgetConfigured: "widgetConfigured"
        case .optionsRequested: "optionsRequested"
        case .tapped: "tapped"
        case .controlTapped: "controlTapped"
        case .controlsReloadRequested: "controlsReloadRequested"
        case .deviceChanged: "deviceChanged"
        case .extensionReplied: "extensionReplied"
        case .extensionFailed: "extensionFailed"
        case .footprintSampled: "footprintSampled"
        }
    }

    static let allKinds: Set<String> = [
        "hostStarted", "catalogChanged", "significantTimeChange", "deadlineReached", "widgetAdded", "widgetRemoved",
        "reloadRequested", "viewRecorded", "snapshotRequested", "activity", "widgetConfigured", "optionsRequested",
        "tapped", "controlTapped", "controlsReloadRequested", "deviceChanged", "extensionReplied", "extensionFailed",
        "footprintSampled",
    ]

    @Test("Each kind of event, applied by the runtime, ends the generation; the reply stays the encoder's")
    func everyEventKind() throws {
        let fixture = try DaemonFixture()
        let runtime = fixture.daemon.runtime
        let client = try fixture.client()
        let added = try client.result(
            "addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"], as: AddWidgetResult.self)
        let id = WidgetID(added.widget.id)
        let request = RequestID(999_999)
        let entry = TimelineEntryPayload(date: Date(), content: ["text": "x"])
        let events: [HostEvent] = [
            .hostStarted(bootID: "boot-1"), .significantTimeChange, .deadlineReached,
            .widgetAdded(AddWidgetRequest(kind: "WellBehavedWidget", family: .systemMedium)),
            .reloadRequested(ReloadRequest(.widget(id), origin: .userInteraction)), .viewRecorded(id),
            .snapshotRequested(id, isPreview: false), .activity(.end(ActivityEndParams(id: "none"))),
            .widgetConfigured(id, [:]), .optionsRequested(kind: "WellBehavedWidget", parameter: "p", app: nil),
            .tapped(TapRequest(widget: id, button: "b")), .controlTapped(kind: "C", app: nil),
            .controlsReloadRequested(kind: nil, app: nil), .deviceChanged(DeviceSettings(locale: "de_DE")),
            .extensionReplied(request, .entry(entry), footprintBytes: nil),
            .extensionFailed(request, .crashed("no such request")), .footprintSampled(request, bytes: 1),
            .widgetRemoved(id), .catalogChanged([]),
        ]
        #expect(Set(events.map(Self.kind(of:))) == Self.allKinds)
        for event in events {
            let (before, after, same) = try runtime.eventLoop.submit { () throws -> (UInt64, UInt64, Bool) in
                _ = try runtime.statusReply(of: nil)
                let before = runtime.statusCache.generation
                runtime.apply(event)
                let after = runtime.statusCache.generation
                // The same instant both ways: the cache's bytes and the value's encoding.
                let now = runtime.now
                let widgets = try runtime.host.status(at: now).get()
                let extensions = runtime.sandboxes(of: widgets, id: nil)
                let cached = try runtime.statusCache.result(now: now, widgets: widgets, extensions: extensions)
                let fresh = try WireCoding.encode(StatusResult(now: now, widgets: widgets, extensions: extensions))
                return (before, after, cached == Array(fresh))
            }.wait()
            #expect(after > before, "\(Self.kind(of: event))")
            #expect(same, "\(Self.kind(of: event))")
        }
    }

    @Test("status's extensions, kept between requests, follow every new catalog")
    func extensionsFollowTheCatalog() throws {
        let fixture = try DaemonFixture()
        let runtime = fixture.daemon.runtime
        let client = try fixture.client()
        _ = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"], as: AddWidgetResult.self)
        let original = try runtime.eventLoop.submit { runtime.catalog }.wait()
        try #require(!original.loaded.isEmpty)
        var confined = original
        confined.loaded[0].sandbox = ExtensionSandbox(
            mode: "enforce", applied: [SandboxRuleState(rule: "seccomp", detail: "test")], missing: [])
        var unconfined = original
        unconfined.loaded[0].sandbox = nil
        var none = original
        none.loaded = []
        for catalog in [confined, unconfined, confined, none, original] {
            let (expected, twice) = try runtime.eventLoop.submit { () throws -> ([ExtensionStatus], [[ExtensionStatus]]) in
                runtime.catalog = catalog
                let expected = catalog.loaded.compactMap { loaded in
                    loaded.sandbox.map { ExtensionStatus(id: loaded.id, sandbox: $0) }
                }
                // Twice: the second answer is the kept one.
                let twice = try (0..<2).map { _ in
                    guard case .success(let bytes) = try runtime.statusReply(of: nil) else { return [ExtensionStatus]() }
                    return try WireCoding.decode(StatusResult.self, from: Data(bytes)).extensions ?? []
                }
                return (expected, twice)
            }.wait()
            #expect(twice == [expected, expected])
            #expect(try client.result("status", as: StatusResult.self).extensions ?? [] == expected)
        }
    }

    @Test("status over the socket is the encoder's bytes, from the cache the second time")
    func overTheSocket() throws {
        let fixture = try DaemonFixture()
        let runtime = fixture.daemon.runtime
        let client = try fixture.client()
        _ = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"], as: AddWidgetResult.self)
        // Until its first timeline is in: a stale widget's age changes with every request.
        let end = Date() + 15
        while Date() < end {
            let status = try client.result("status", as: StatusResult.self)
            if status.widgets.allSatisfy({ $0.staleSeconds == 0 && !$0.reloadRunning && $0.currentEntry.source == .timeline }) {
                break
            }
            usleep(20_000)
        }
        let reused = try runtime.eventLoop.submit { runtime.statusCache.reused }.wait()
        let first = try client.result("status", as: StatusResult.self)
        let second = try client.result("status", as: StatusResult.self)
        #expect(first.widgets.map(\.widget.id) == second.widgets.map(\.widget.id))
        #expect(second.now >= first.now)
        let reusedAfter = try runtime.eventLoop.submit { runtime.statusCache.reused }.wait()
        #expect(reusedAfter > reused)
        // One widget by id, and an unknown one refused as before.
        let one = try client.result("status", ["id": .string(first.widgets[0].widget.id)], as: StatusResult.self)
        #expect(one.widgets.count == 1)
        guard case .failure(let error) = try client.call("status", ["id": "w999"]) else {
            Issue.record("w999 was not refused")
            return
        }
        #expect(error.code == JSONRPCError.requestRefusedCode)
        // In a batch, the cached bytes become the member's result value.
        client.send(raw: #"[{"jsonrpc":"2.0","id":"s","method":"status"}]"#)
        guard case .batch(let members)? = client.receiveLine(), members.count == 1,
            case .message(.response(.string("s"), let result)) = members[0]
        else {
            Issue.record("no batch answer")
            return
        }
        let batched = try result.decode(as: StatusResult.self)
        #expect(batched.widgets.map(\.widget.id) == first.widgets.map(\.widget.id))
    }
}
