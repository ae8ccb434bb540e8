import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Reload policies")
struct PolicyTests {
    private func host(policy: @escaping (Date) -> TimelinePolicy, entries: @escaping (Date) -> [TimelineEntryPayload] = { [entry(at: $0)] }, configuration: HostConfiguration = .default) -> TestHost {
        TestHost(configuration: configuration, provider: { params in
            .timeline(TimelinePayload(entries: entries(params.now), policy: policy(params.now)))
        })
    }

    @Test(".atEnd is due at the last entry's date")
    func atEnd() {
        var test = host(policy: { _ in .atEnd }, entries: { now in (0..<4).map { entry(at: now + .hours(Double($0))) } })
        let id = test.add()
        #expect(test.status(id).nextReload.at == t0 + .hours(3))
        test.advance(to: t0 + .hours(3) - 1)
        #expect(test.started(id).count == 1)
        test.advance(to: t0 + .hours(3))
        #expect(test.started(id).count == 2)
        #expect(test.started(id).last?.budgeted == true)
        #expect(test.started(id).last?.requestedAt == t0 + .hours(3))
    }

    @Test(".after(d) is due at d")
    func after() {
        var test = host(policy: { .after($0 + .minutes(42)) })
        let id = test.add()
        test.advance(to: t0 + .minutes(42))
        #expect(test.started(id).map(\.at) == [t0, t0 + .minutes(42)])
    }

    @Test(".never reloads only when asked")
    func never() {
        var test = host(policy: { _ in .never })
        let id = test.add()
        #expect(test.status(id).nextReload.at == nil)
        #expect(test.host.nextDeadline == t0 + .seconds(30))  // only the idle extension's stop
        test.advance(by: .days(3))
        #expect(test.started(id).count == 1)
        #expect(test.host.nextDeadline == nil)
        #expect(test.reload().outcome == .started)
    }

    @Test("A policy's due time is never earlier than min_reload_interval after the reload that produced it",
        arguments: [5.0, 12.0])
    func minimumInterval(minutes: Double) {
        let configuration = config { $0.policy.minReloadInterval = .minutes(minutes) }
        var test = host(policy: { .after($0 + .minutes(1)) }, configuration: configuration)
        let id = test.add()
        #expect(test.status(id).nextReload.at == t0 + .minutes(minutes))
        #expect(test.status(id).diagnostics.contains { $0.code == "policyTooSoon" })
        test.advance(to: t0 + .minutes(minutes) * 3)
        #expect(test.started(id).map(\.at) == (0...3).map { t0 + .minutes(minutes) * Double($0) })
    }

    @Test(".atEnd with every entry in the past is held to the minimum interval too")
    func atEndInThePast() {
        var test = host(policy: { _ in .atEnd }, entries: { [entry(at: $0 - .hours(2))] })
        let id = test.add()
        #expect(test.status(id).nextReload.at == t0 + .minutes(5))
    }
}

@Suite("Current entry")
struct CurrentEntryTests {
    let entries = [entry(at: t0 + .hours(1), "one"), entry(at: t0 + .hours(2), "two"), entry(at: t0 + .hours(3), "three")]

    @Test("The entry shown at t is the latest entry with date ≤ t")
    func latestEntry() {
        let at = { (time: Date) in CurrentEntryRule.entry(at: time, entries: self.entries, previous: nil, placeholder: nil) }
        #expect(at(t0 + .hours(1)).entry == entries[0])
        #expect(at(t0 + .hours(2) + 59).entry == entries[1])
        #expect(at(t0 + .days(2)).entry == entries[2])
        #expect(at(t0 + .days(2)).source == .timeline)
        #expect(CurrentEntryRule.nextChange(after: t0 + .hours(1), entries: entries) == t0 + .hours(2))
        #expect(CurrentEntryRule.nextChange(after: t0 + .hours(3), entries: entries) == nil)
    }

    @Test("Before the first entry's date the previous timeline's entry stays; with nothing, the placeholder")
    func beforeTheFirstEntry() {
        let previous = entry(at: t0 - .hours(5), "previous")
        let placeholder = entry(at: t0, "placeholder")
        let withPrevious = CurrentEntryRule.entry(at: t0, entries: entries, previous: previous, placeholder: placeholder)
        #expect(withPrevious.source == .previousTimeline && withPrevious.entry == previous)
        let withPlaceholder = CurrentEntryRule.entry(at: t0, entries: entries, previous: nil, placeholder: placeholder)
        #expect(withPlaceholder.source == .placeholder && withPlaceholder.entry == placeholder)
        #expect(CurrentEntryRule.entry(at: t0, entries: [], previous: nil, placeholder: nil).source == .none)
    }

    @Test("Entry changes are announced at their dates: placeholder, then entries, with the previous one kept")
    func entryChangesAreAnnounced() {
        var round = 0
        var test = TestHost(provider: { params in
            round += 1
            return .timeline(
                TimelinePayload(entries: [entry(at: params.now + .hours(1), "round \(round)")], policy: .never))
        })
        let id = test.add()
        #expect(test.status(id).currentEntry.source == .placeholder)
        test.advance(to: t0 + .hours(1))
        #expect(test.status(id).currentEntry.entry?.content["text"] == "round 1")
        #expect(test.reload().outcome == .started)
        // The new timeline starts in an hour; until then round 1's entry stays.
        #expect(test.status(id).currentEntry.source == .previousTimeline)
        #expect(test.status(id).currentEntry.entry?.content["text"] == "round 1")
        test.advance(to: t0 + .hours(2))
        #expect(test.status(id).currentEntry.entry?.content["text"] == "round 2")
        let changes = test.notices(.entryChanged, id).map { notice -> JSONValue? in
            guard case .entryChanged(_, _, let entry, _) = notice else { return nil }
            return entry?.content["text"] ?? entry?.content["placeholder"]
        }
        #expect(changes == ["BirthdayHomeWidget", "round 1", "round 2"])
    }
}

@Suite("Timeline validation")
struct TimelineValidationTests {
    @Test("An empty timeline is rejected and the previous one stays")
    func emptyTimeline() {
        var empty = false
        var test = TestHost(provider: { params in
            .timeline(TimelinePayload(entries: empty ? [] : [entry(at: params.now, "good")], policy: .never))
        })
        let id = test.add()
        empty = true
        test.advance(by: .minutes(10))
        #expect(test.reload().outcome == .started)
        let status = test.status(id)
        #expect(status.lastOutcome?.result == .invalidTimeline)
        #expect(status.diagnostics.contains { $0.code == "emptyTimeline" })
        #expect(status.currentEntry.entry?.content["text"] == "good")
        #expect(status.backoff.consecutiveFailures == 1)
    }

    @Test("Entries out of date order are sorted and noted")
    func outOfOrder() {
        var test = TestHost(provider: { params in
            .timeline(
                TimelinePayload(
                    entries: [entry(at: params.now + .hours(2), "b"), entry(at: params.now, "a")], policy: .never))
        })
        let id = test.add()
        let timeline = try! test.host.timeline(of: id, at: test.now).get()
        #expect(timeline.entries.map { $0.content["text"] } == ["a", "b"])
        #expect(test.status(id).diagnostics.contains { $0.code == "entriesOutOfOrder" })
    }

    @Test("Entry count limits: a warning past warn_entries, rejection past max_entries",
        arguments: [(100, 400), (10, 20)])
    func entryLimits(warn: Int, max: Int) {
        let limits = config {
            $0.limits.warnEntries = warn
            $0.limits.maxEntries = max
        }.limits
        let make = { (count: Int) in
            TimelinePayload(entries: (0..<count).map { entry(at: t0 + Double($0)) }, policy: .never)
        }
        guard case .accepted(_, let atWarn) = TimelineValidation.validate(make(warn), byteCount: 10, limits: limits)
        else { Issue.record("rejected at warn"); return }
        #expect(atWarn.isEmpty)
        guard case .accepted(_, let pastWarn) = TimelineValidation.validate(make(warn + 1), byteCount: 10, limits: limits)
        else { Issue.record("rejected past warn"); return }
        #expect(pastWarn.map(\.code) == ["manyEntries"])
        #expect({ if case .accepted = TimelineValidation.validate(make(max), byteCount: 10, limits: limits) { true } else { false } }())
        guard case .rejected(let note) = TimelineValidation.validate(make(max + 1), byteCount: 10, limits: limits)
        else { Issue.record("accepted past max"); return }
        #expect(note.code == "tooManyEntries")
        #expect(note.message.contains("\(max + 1) entries"))
    }

    @Test("A reply over max_timeline_bytes is rejected", arguments: [4 * 1024 * 1024, 1000])
    func sizeLimit(maxBytes: Int) {
        let limits = config { $0.limits.maxTimelineBytes = maxBytes }.limits
        let payload = TimelinePayload(entries: [entry(at: t0)], policy: .never)
        if case .rejected = TimelineValidation.validate(payload, byteCount: maxBytes, limits: limits) {
            Issue.record("rejected at the limit")
        }
        guard case .rejected(let note) = TimelineValidation.validate(payload, byteCount: maxBytes + 1, limits: limits)
        else { Issue.record("accepted past the limit"); return }
        #expect(note.code == "timelineTooLarge")
    }
}
