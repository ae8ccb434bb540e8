import Foundation
import SeededRandom
import WidgetHostCore

/// Something the scenario does at a moment: an app asks for a reload, the user looks at a widget.
struct ScenarioInput: Sendable {
    enum Action: Sendable {
        /// `reloadTimelines(ofKind:)`, or `reloadAllTimelines()` when `kind` is nil.
        case reload(app: String, kind: String?, foreground: Bool)
        case view(WidgetID)
        /// `[[activity]]` number `index` starts, is updated by its app, gets a push, ends.
        case activityStart(index: Int)
        case activityUpdate(index: Int, number: Int)
        case activityPush(index: Int, priority: Int, event: String, number: Int)
        case activityEnd(index: Int)
        /// A WidgetKit push for `kind`.
        case widgetPush(kind: String)
        /// The user taps a button in the widget (`button`, or an intent named `Tap`).
        case tap(WidgetID, button: String?)
        /// The user edits the widget's configuration.
        case configure(WidgetID)
        /// `[[device]]` number `index` changes the locale or text size.
        case device(index: Int)
    }

    var at: Date
    var action: Action
}

/// Expands the scenario's per-day schedules into a time-ordered list of inputs.
struct ScenarioSchedule {
    let scenario: Scenario
    private let calendar: Calendar

    init(_ scenario: Scenario) {
        self.scenario = scenario
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = scenario.timeZone
        self.calendar = calendar
    }

    /// Local midnights from the day of `start` to the last day that overlaps the period.
    var dayStarts: [Date] {
        var days: [Date] = []
        var day = calendar.startOfDay(for: scenario.start)
        while day < scenario.end {
            days.append(day)
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        return days
    }

    /// Seconds after local midnight → an instant on `day` (DST-safe: counted from midnight).
    func at(_ offset: TimeInterval, on day: Date) -> Date { day + offset }

    func isForeground(_ app: ScenarioApp, at time: Date) -> Bool {
        // The calendar's arithmetic is the dearest part of building the inputs: skip it when it cannot matter.
        guard !app.foreground.isEmpty else { return false }
        let today = calendar.startOfDay(for: time)
        let days = [calendar.date(byAdding: .day, value: -1, to: today) ?? today, today]
        return app.foreground.contains { window in
            days.contains { day in
                let opens = at(window.from, on: day)
                return opens <= time && time < opens + window.length
            }
        }
    }

    /// Every input in the period [start, end), sorted by time; ties keep scenario order.
    func inputs(widgets: [(ScenarioWidget, [WidgetID])], seed: UInt64) -> [ScenarioInput] {
        var generator = SeededGenerator(seed: seed)
        var inputs: [ScenarioInput] = []
        let days = dayStarts
        for app in scenario.apps {
            for schedule in app.reloads {
                let times = instants(of: schedule.times, days: days, using: &generator)
                for time in times where time >= scenario.start && time < scenario.end {
                    let foreground = isForeground(app, at: time)
                    switch schedule.when {
                    case .always: break
                    case .foreground where !foreground: continue
                    case .background where foreground: continue
                    default: break
                    }
                    inputs.append(ScenarioInput(at: time, action: .reload(app: app.id, kind: schedule.kind, foreground: foreground)))
                }
            }
        }
        // Views spread evenly over each day, the first half a gap after midnight.
        for (widget, ids) in widgets where widget.viewsPerDay > 0 {
            let gap = 86_400 / Double(widget.viewsPerDay)
            for day in days {
                for index in 0..<widget.viewsPerDay {
                    let time = at(gap * (Double(index) + 0.5), on: day).rounded()
                    guard time >= scenario.start, time < scenario.end else { continue }
                    inputs += ids.map { ScenarioInput(at: time, action: .view($0)) }
                }
            }
        }
        // Taps and edits, after the reloads' draws (so adding them changes no reload time).
        for (widget, ids) in widgets {
            for interaction in widget.interactions {
                let times = instants(of: interaction.times, days: days, using: &generator)
                for time in times where time >= scenario.start && time < scenario.end {
                    inputs += ids.map { id in
                        ScenarioInput(
                            at: time,
                            action: interaction.kind == .tap ? .tap(id, button: interaction.button) : .configure(id))
                    }
                }
            }
        }
        for (index, change) in scenario.deviceChanges.enumerated() {
            inputs.append(ScenarioInput(at: scenario.start + change.after, action: .device(index: index)))
        }
        inputs += activityInputs()
        return inputs.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }
}

extension ScenarioSchedule {
    /// The instants a per-day schedule gives over `days`; `per_day` draws from `generator`.
    func instants(of times: ReloadSchedule.Times, days: [Date], using generator: inout SeededGenerator) -> [Date] {
        var result: [Date] = []
        for day in days {
            switch times {
            case .every(let interval, let from, let until):
                var offset = from
                while offset < until {
                    result.append(at(offset, on: day))
                    offset += interval
                }
            case .at(let offsets):
                result += offsets.map { at($0, on: day) }
            case .perDay(let range, let from, let until):
                let count = Int.random(in: range, using: &generator)
                let span = until - from
                let drawn = (0..<count).map { _ in (Double.random(in: 0..<1, using: &generator) * span).rounded(.down) }
                result += drawn.sorted().map { at(from + $0, on: day) }
            }
        }
        return result
    }

    /// The inputs of `[[activity]]` and `[[widget_push]]` tables.
    func activityInputs() -> [ScenarioInput] {
        var inputs: [ScenarioInput] = []
        func times(_ repeat_: ScenarioActivity.Repeat, until end: TimeInterval?) -> [Date] {
            var result: [Date] = []
            var offset = repeat_.from
            let last = min(repeat_.until, end ?? .infinity, scenario.duration)
            while offset < last {
                result.append(scenario.start + offset)
                offset += repeat_.every
            }
            return result
        }
        for (index, activity) in scenario.activities.enumerated() where activity.start < scenario.duration {
            inputs.append(ScenarioInput(at: scenario.start + activity.start, action: .activityStart(index: index)))
            var number = 0
            for update in activity.updates {
                for time in times(update, until: activity.end) where time > scenario.start + activity.start {
                    number += 1
                    inputs.append(ScenarioInput(at: time, action: .activityUpdate(index: index, number: number)))
                }
            }
            for push in activity.pushes {
                let pushTimes = push.event == "end" ? Array(times(push.times, until: activity.end).prefix(1)) : times(push.times, until: activity.end)
                for time in pushTimes where time > scenario.start + activity.start {
                    number += 1
                    inputs.append(
                        ScenarioInput(
                            at: time, action: .activityPush(index: index, priority: push.priority, event: push.event, number: number)))
                }
            }
            if let end = activity.end, end < scenario.duration {
                inputs.append(ScenarioInput(at: scenario.start + end, action: .activityEnd(index: index)))
            }
        }
        for push in scenario.widgetPushes {
            inputs += times(push.times, until: nil).map { ScenarioInput(at: $0, action: .widgetPush(kind: push.kind)) }
        }
        return inputs
    }
}

extension Date {
    /// To the whole second, so generated instants print without fractions.
    fileprivate func rounded() -> Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded()) }
}
