import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Taps on buttons and toggles")
struct IntentTapTests {
    @Test("A tap on w1 runs the intent once and reloads w1 at once, exempt (appIntent); w2 not at all")
    func tapReloadsTappedOnly() throws {
        var test = TestHost.intents(configuration: config { $0.budget.pinned = ["HabitWidget": 1] })
        let w1 = WidgetID(try #require(TestHost.added(test.addConfigured(nil, kind: "HabitWidget"))).id)
        let w2 = WidgetID(try #require(TestHost.added(test.addConfigured(nil, kind: "HabitWidget"))).id)
        test.advance(by: 30)
        let reply = test.answered(.tapped(TapRequest(widget: w1, button: "Done")))
        guard case .tapped(let result)? = reply else { Issue.record("expected tapped: \(String(describing: reply))"); return }
        #expect(result.outcome == .succeeded)
        #expect(result.intent == doneIntent)
        #expect(result.reload?.outcome == .started)
        #expect(result.reload?.budgeted == false)
        #expect(test.performs().map(\.intent) == [doneIntent])
        #expect(test.performs().first?.widgetId == w1.rawValue)
        #expect(test.started(w1).map(\.charge) == [.exempt(.added), .exempt(.appIntent)])
        #expect(test.started(w2).map(\.charge) == [.exempt(.added)])
        #expect(test.status(w1).budget.used == 0)
    }

    @Test("A button is found by id, intent type, intent title or label text; an unknown one lists those there are",
        arguments: ["b1", "MarkHabitDoneIntent", "Mark Done", "done"])
    func findButton(name: String) throws {
        var test = TestHost.intents()
        let w1 = WidgetID(try #require(TestHost.added(test.addConfigured(nil, kind: "HabitWidget"))).id)
        guard case .tapped(let result)? = test.answered(.tapped(TapRequest(widget: w1, button: name))) else {
            Issue.record("expected tapped"); return
        }
        #expect(result.intent == doneIntent)
        #expect(
            refusal(test.answered(.tapped(TapRequest(widget: w1, button: "Undo"))))
                == "w1 has no button \"Undo\"; its buttons are b1 (Mark Done: Done), b2 (Reminder: Remind me)")
    }

    @Test("Other instances of the kind reload only if the intent calls WidgetCenter, and then exempt")
    func widgetCenterFromIntent() throws {
        var test = TestHost.intents(configuration: config { $0.budget.pinned = ["HabitWidget": 1] })
        test.intents = { call in
            if case .perform = call { return .performed(IntentPerformResult(reloadKinds: ["HabitWidget"])) }
            return nil
        }
        let w1 = WidgetID(try #require(TestHost.added(test.addConfigured(nil, kind: "HabitWidget"))).id)
        let w2 = WidgetID(try #require(TestHost.added(test.addConfigured(nil, kind: "HabitWidget"))).id)
        test.advance(by: 30)
        _ = test.answered(.tapped(TapRequest(widget: w1, button: "b1")))
        #expect(test.started(w2).map(\.charge) == [.exempt(.added), .exempt(.appIntent)])
        #expect(test.started(w1).count == 2)
    }

    @Test("An intent that hangs is killed at intent_timeout and reported; the widget does not reload", arguments: [5.0, 2.0])
    func hangIsKilled(timeout: Double) throws {
        var test = TestHost.intents(configuration: config { $0.limits.intentTimeout = timeout })
        test.intents = { _ in nil }
        let w1 = WidgetID(try #require(TestHost.added(test.addConfigured(nil, kind: "HabitWidget"))).id)
        let step = test.handle(.tapped(TapRequest(widget: w1, button: "b1")))
        guard case .answerLater(let token)? = step.reply else { Issue.record("expected answerLater"); return }
        test.advance(by: timeout - 0.01)
        #expect(test.answers[token] == nil)
        #expect(refusal(test.answered(.tapped(TapRequest(widget: w1, button: "b1")))) == "an intent of w1 is still running; tap again when it has finished")
        test.advance(by: 0.01)
        guard case .tapped(let result)? = test.answers[token] else { Issue.record("expected an answer"); return }
        #expect(result.outcome == .timedOut)
        // The reason names the request and the one limit it broke, not every timeout there is.
        #expect(result.detail == "no reply after \(String(format: "%.2f", timeout))s to intent/perform (limits.intent_timeout = \(timeout)s); its process was killed")
        #expect(test.effects.contains(.kill(extension: "com.widgy.widget", reason: .timedOut)))
        #expect(test.started(w1).count == 1)
        #expect(test.notices.contains { if case .intentFinished(_, "w1", nil, _, "Mark Done", .timedOut, _, _) = $0 { true } else { false } })
        #expect(test.status(w1).diagnostics.last?.code == "intentFailed")
    }

    @Test("A Toggle is on at once while its intent runs and rolls back if the intent fails")
    func toggleRollsBack() throws {
        var test = TestHost.intents()
        test.intents = { _ in nil }
        let w1 = WidgetID(try #require(TestHost.added(test.addConfigured(nil, kind: "HabitWidget"))).id)
        let step = test.handle(.tapped(TapRequest(widget: w1, button: "Remind me")))
        guard case .answerLater(let token)? = step.reply else { Issue.record("expected answerLater"); return }
        #expect(test.host.record(of: w1)?.interaction?.toggledTo == true)
        #expect(test.performs().last?.isOn == true)
        let request = try #require(test.held.last)
        test.handle(.extensionReplied(request.id, .performed(IntentPerformResult(error: "no network")), footprintBytes: nil))
        guard case .tapped(let result)? = test.answers[token] else { Issue.record("expected an answer"); return }
        #expect(result.outcome == .failed)
        #expect(result.detail == "no network")
        #expect(result.isOn == false)
        #expect(test.host.record(of: w1)?.interaction == nil)
        #expect(test.status(w1).diagnostics.last?.message == "Reminder failed: no network; the toggle is back to off")
    }

    @Test("A Toggle whose intent succeeded stays on, and the tap shows, until the reload it asked for lands")
    func toggleStaysUntilItsReloadLands() throws {
        var test = TestHost.intents()
        test.intents = { _ in nil }
        let w1 = WidgetID(try #require(TestHost.added(test.addConfigured(nil, kind: "HabitWidget"))).id)
        test.advance(by: 10)
        _ = test.handle(.tapped(TapRequest(widget: w1, button: "Remind me")))
        #expect(test.notices.contains { if case .intentStarted(_, "w1", nil, _, "Reminder", _, true) = $0 { true } else { false } })
        #expect(test.status(w1).interaction?.endedAt == nil)
        // The reload the intent asks for is held: the widget waits for it.
        test.provider = { _ in .hold }
        test.advance(by: 0.5)
        let perform = try #require(test.held.last)
        test.handle(.extensionReplied(perform.id, .performed(IntentPerformResult()), footprintBytes: nil))
        let waiting = try #require(test.status(w1).interaction)
        #expect(waiting.toggledTo == true)
        #expect(waiting.endedAt == test.now)
        #expect(waiting.button != nil)
        // Another tap meanwhile is not refused: the intent itself has ended.
        #expect(test.host.record(of: w1)?.interaction?.isRunning == false)
        let reload = try #require(test.held.last)
        test.handle(
            .extensionReplied(
                reload.id, .timeline(TimelinePayload(entries: [habitEntry(at: test.now)], policy: .never), byteCount: 200),
                footprintBytes: nil))
        #expect(test.status(w1).interaction == nil)
    }

    @Test("A widget with no view can be tapped with an intent given by name")
    func tapWithIntent() throws {
        var test = TestHost()
        test.intents = { _ in .performed(IntentPerformResult()) }
        let w1 = test.add()
        let reply = test.answered(.tapped(TapRequest(widget: w1, intent: IntentInvocation(type: "Refresh"))))
        guard case .tapped(let result)? = reply else { Issue.record("expected tapped"); return }
        #expect(result.outcome == .succeeded)
        #expect(test.started(w1).last?.charge == .exempt(.appIntent))
    }
}
