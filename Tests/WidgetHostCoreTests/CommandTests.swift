import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Commands")
struct CommandTests {
    let otherBirthdays = ExtensionDescriptor(
        id: "org.copycat.widget",
        widgets: [
            WidgetDescriptor(
                kind: "BirthdayHomeWidget", displayName: "Copy", description: "", supportedFamilies: [.systemSmall])
        ])

    @Test("An unknown kind is refused with the known kinds listed")
    func unknownKind() {
        var test = TestHost()
        let step = test.handle(.reloadRequested(ReloadRequest(.kind("NoSuchWidget", app: nil))))
        guard case .refused(let error)? = step.reply else { Issue.record("not refused"); return }
        #expect(error == .unknownKind(kind: "NoSuchWidget", known: ["BirthdayHomeWidget", "BirthdayLockScreenWidget", "WeatherWidget"]))
        #expect(error.description.contains("known kinds are BirthdayHomeWidget"))
    }

    @Test("A kind two apps define needs app, and the error lists the apps")
    func ambiguousKind() {
        var test = TestHost(extensions: [birthdayExtension, otherBirthdays])
        let step = test.handle(.widgetAdded(AddWidgetRequest(kind: "BirthdayHomeWidget", family: .systemSmall)))
        guard case .refused(let error)? = step.reply else { Issue.record("not refused"); return }
        #expect(error == .ambiguousKind(kind: "BirthdayHomeWidget", apps: ["com.birthdayreminders", "org.copycat"]))
        let named = test.handle(.widgetAdded(AddWidgetRequest(kind: "BirthdayHomeWidget", family: .systemSmall, app: "org.copycat")))
        guard case .widgetAdded(let result)? = named.reply else { Issue.record("not added"); return }
        #expect(result.widget.extension == "org.copycat.widget")
        #expect(result.widget.app == "org.copycat")
    }

    @Test("A family the kind does not support is refused with the supported ones")
    func unsupportedFamily() {
        var test = TestHost()
        let step = test.handle(.widgetAdded(AddWidgetRequest(kind: "BirthdayHomeWidget", family: .accessoryInline)))
        guard case .refused(let error)? = step.reply else { Issue.record("not refused"); return }
        #expect(error.description == "BirthdayHomeWidget does not support accessoryInline; it supports systemSmall, systemMedium, systemLarge")
        #expect(test.host.widgets.isEmpty)
    }

    @Test("Unknown widget ids are refused for remove, view, status and timeline")
    func unknownWidget() {
        var test = TestHost()
        for event in [HostEvent.widgetRemoved("w9"), .viewRecorded("w9"), .reloadRequested(ReloadRequest(.widget("w9"))), .snapshotRequested("w9", isPreview: true)] {
            #expect(test.handle(event).reply == .refused(.unknownWidget("w9")))
        }
        #expect(throws: HostError.unknownWidget("w9")) { try test.host.status(of: "w9", at: t0).get() }
        #expect(throws: HostError.unknownWidget("w9")) { try test.host.timeline(of: "w9", at: t0).get() }
    }

    @Test("reloadAllTimelines reloads only the calling app's instances")
    func reloadAllIsScopedToTheApp() {
        var test = TestHost()
        let birthday = test.add()
        let lock = test.add("BirthdayLockScreenWidget", .accessoryInline)
        let weather = test.add("WeatherWidget")
        test.advance(by: .minutes(10))
        let step = test.handle(.reloadRequested(ReloadRequest(.allOfApp("com.birthdayreminders"))))
        guard case .reload(let result)? = step.reply else { Issue.record("no reply"); return }
        #expect(result.outcomes.map(\.id) == [birthday.rawValue, lock.rawValue])
        #expect(test.started(weather).count == 1)
        #expect(test.host.currentConfigurations(app: "com.example.weather").map(\.id) == [weather.rawValue])
        #expect(test.host.currentConfigurations().count == 3)
    }

    @Test("Removing a widget drops its queued work and its deadlines")
    func remove() {
        var test = TestHost(provider: { params in
            .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .hours(1))))
        })
        let id = test.add()
        #expect(test.handle(.widgetRemoved(id)).reply == .widgetRemoved(WidgetInfo(id: "w1", kind: "BirthdayHomeWidget", family: .systemSmall, app: "com.birthdayreminders", extension: "com.birthdayreminders.widget")))
        test.advance(by: .days(1))
        #expect(test.started(id).count == 1)
        #expect(test.host.nextDeadline == nil)
        let persisted = test.effects.compactMap { if case .persist(let scope) = $0 { scope } else { nil } }
        #expect(persisted.contains { $0.removed == [id] })
    }

    @Test("A widget whose extension disappeared waits with reason extensionUnavailable until it returns")
    func extensionUnavailable() {
        var test = TestHost()
        let id = test.add()
        test.handle(.catalogChanged([weatherExtension]))
        test.advance(by: .minutes(10))
        let step = test.handle(.reloadRequested(ReloadRequest(.widget(id), origin: .userInteraction)))
        guard case .reload(let result)? = step.reply else { Issue.record("no reply"); return }
        #expect(result.outcomes.first?.reason == .extensionUnavailable)
        test.handle(.catalogChanged([birthdayExtension, weatherExtension]))
        #expect(test.started(id).count == 2)
    }

    @Test("Every step that changes state asks to persist exactly what changed")
    func persistScope() {
        var host = WidgetHost()
        _ = host.handle(.catalogChanged([weatherExtension]), at: t0)
        let added = host.handle(.widgetAdded(AddWidgetRequest(kind: "WeatherWidget", family: .systemSmall)), at: t0)
        guard case .persist(let scope)? = added.effects.last else { Issue.record("no persist"); return }
        #expect(scope == PersistScope(changed: ["w1"], removed: [], host: true))
        let idle = host.handle(.deadlineReached, at: t0 + 0.5)
        #expect(idle.effects.isEmpty)
    }

    @Test("A step that handles widgets out of id order persists them once each, in id order")
    func persistOrder() {
        // w2 falls due first; a step late enough handles both, earliest deadline first.
        var test = TestHost(provider: { params in
            let hours: Double = params.widgetId == "w2" ? 1 : 2
            return .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .hours(hours))))
        })
        for _ in 0..<2 { test.add() }
        test.now = t0 + .hours(3)
        let step = test.handle(.deadlineReached)
        #expect(test.started("w2").count == 2)
        guard case .persist(let scope)? = step.effects.last else { Issue.record("no persist"); return }
        #expect(scope.changed == ["w1", "w2"])
    }
}

@Suite("Restore")
struct RestoreTests {
    @Test("A reload running when the host stopped runs again after restart, uncharged")
    func runningReloadIsPrepaid() {
        var test = TestHost(provider: { _ in .hold })
        let id = test.add()
        test.advance(by: 1)
        _ = test.reload()
        let records = test.host.allRecords
        #expect(records.first?.ledger.count == 0)  // the held one is the added reload; this one is pending
        var restored = WidgetHost(restoring: test.host.host, widgets: records)
        _ = restored.handle(.hostStarted(bootID: "boot-1"), at: test.now)
        let step = restored.handle(.catalogChanged([birthdayExtension, weatherExtension]), at: test.now)
        #expect(step.requests.map(\.call.method) == [.timeline])
        let charges = step.notices.compactMap { if case .reloadStarted(_, _, let charge, _) = $0 { charge } else { nil } }
        #expect(charges == [.exempt(.added)])
        #expect(try! restored.status(of: id, at: test.now).get()[0].budget.used == 0)
    }

    @Test("Status is the same before and after a restore with the same boot id")
    func statusSurvivesRestore() {
        var test = TestHost(provider: { params in
            .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .minutes(30))))
        })
        test.add(pinned: 3)
        test.add("WeatherWidget")
        // Past the extension's idle stop, which a restarted host has no process for.
        test.advance(by: .hours(3) + .minutes(1))
        let before = try! test.host.status(at: test.now).get()
        var restored = WidgetHost(restoring: test.host.host, widgets: test.host.allRecords)
        _ = restored.handle(.catalogChanged([birthdayExtension, weatherExtension]), at: test.now)
        _ = restored.handle(.hostStarted(bootID: "boot-1"), at: test.now)
        #expect(try! restored.status(at: test.now).get() == before)
        #expect(restored.nextDeadline == test.host.nextDeadline)
    }

    @Test("Records handed over out of order are restored in id order, w2 before w10")
    func restoresInIDOrder() {
        var test = TestHost()
        for _ in 1...11 { test.add() }
        let records = test.host.allRecords
        #expect(records.isSortedByID)
        let shuffled = [records[10], records[1], records[0]] + records[2..<10]
        #expect(!shuffled.isSortedByID)
        let restored = WidgetHost(restoring: test.host.host, widgets: shuffled)
        #expect(restored.allRecords.map(\.id) == records.map(\.id))
        #expect(restored.widgets.map(\.id).prefix(3) == ["w1", "w2", "w3"])
    }
}
