import ArgumentParser
import Foundation
import LucidPalShared
import WidgetKit

/// Plays the LucidPal app: its habit store and note controller each write their fields of
/// the widget snapshot (read-modify-write, atomically), then ask the host to reload.
@main
struct LucidPalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lucidpal",
        abstract: "Play the LucidPal app: write habits, the pinned note and calendar events for the widget.",
        discussion: """
            Data goes to the App Group group.app.lucidpal, found through WIDGETHOST_APP_GROUPS \
            (group.app.lucidpal=/path/to/container). After each write the widget is reloaded \
            with WidgetCenter (WIDGETHOST_SOCKET; WIDGETHOST_FOREGROUND=1 makes it exempt).

            Examples:
              lucidpal habits --done 3 --total 5 --streak Meditate --streak-days 12
              lucidpal note "Call the dentist"
              lucidpal event Stand-up --in 10 --minutes 15
              lucidpal import Examples/LucidPal.appex/sample-lucidpal.json
            """,
        subcommands: [Habits.self, Note.self, Event.self, Import.self])

    struct Habits: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What HabitStore writes after save, logEntry or delete: today's count, total, top streak.")
        @Option(help: "Habits completed today.") var done: Int
        @Option(help: "Active habits.") var total: Int
        @Option(help: "The habit with the longest active streak.") var streak: String?
        @Option(help: "Its streak in days.") var streakDays: Int = 0

        func validate() throws {
            guard done >= 0, total >= 0, done <= total else {
                throw ValidationError("--done must be between 0 and --total")
            }
        }

        func run() throws {
            try LucidPalApp.container().writeHabits(
                habitsToday: done, habitsTotal: total, topStreakName: streak, topStreakDays: streakDays)
            print("habits \(done)/\(total)")
            LucidPalApp.reloadWidget()
        }
    }

    struct Note: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What NoteActionController writes after a note changes: the pinned note's title.")
        @Argument(help: "The pinned note's title.") var title: String?
        @Flag(help: "No note is pinned any more.") var unpin = false

        func validate() throws {
            guard (title == nil) == unpin else { throw ValidationError("give a note title, or --unpin") }
        }

        func run() throws {
            try LucidPalApp.container().writeNote(pinnedNote: title)
            print(title.map { "pinned \($0)" } ?? "unpinned")
            LucidPalApp.reloadWidget()
        }
    }

    struct Event: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a calendar event for the widget, or clear them.")
        @Argument(help: "The event's title.") var title: String?
        @Option(name: .customLong("in"), help: "Minutes from now until it starts.") var startsIn: Double = 0
        @Option(help: "How long it lasts, in minutes.") var minutes: Double = 30
        @Flag(help: "Remove every event.") var clear = false

        func validate() throws {
            guard (title == nil) == clear else { throw ValidationError("give an event title, or --clear") }
            guard minutes > 0 else { throw ValidationError("--minutes must be positive") }
        }

        func run() throws {
            let container = try LucidPalApp.container()
            if let title {
                let start = Date().addingTimeInterval(startsIn * 60)
                try container.updateEvents {
                    $0.append(CalendarEvent(title: title, start: start, end: start.addingTimeInterval(minutes * 60)))
                }
                print("event \(title)")
            } else {
                try container.updateEvents { $0.removeAll() }
                print("events cleared")
            }
            LucidPalApp.reloadWidget()
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a sample: {habits: {done, total, streak?, streakDays?}, pinnedNote?, events: [{title, in, minutes}]}.")
        @Argument(help: "The JSON file.") var file: String

        struct Sample: Decodable {
            struct Habits: Decodable {
                var done: Int
                var total: Int
                var streak: String?
                var streakDays: Int?
            }
            struct Event: Decodable {
                var title: String
                var `in`: Double
                var minutes: Double
            }
            var habits: Habits?
            var pinnedNote: String?
            var events: [Event]?
        }

        func run() throws {
            let sample = try JSONDecoder().decode(Sample.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
            let container = try LucidPalApp.container()
            if let habits = sample.habits {
                try container.writeHabits(
                    habitsToday: habits.done, habitsTotal: habits.total, topStreakName: habits.streak,
                    topStreakDays: habits.streakDays ?? 0)
            }
            try container.writeNote(pinnedNote: sample.pinnedNote)
            let now = Date()
            try container.updateEvents { events in
                events = (sample.events ?? []).map {
                    let start = now.addingTimeInterval($0.in * 60)
                    return CalendarEvent(title: $0.title, start: start, end: start.addingTimeInterval($0.minutes * 60))
                }
            }
            print("imported \(file)")
            LucidPalApp.reloadWidget()
        }
    }
}

enum LucidPalApp {
    static func container() throws -> LucidPalContainer {
        guard let container = LucidPalContainer.shared else {
            throw ValidationError(
                "no container for the App Group \(LucidPalContainer.appGroup); set "
                    + "WIDGETHOST_APP_GROUPS=\(LucidPalContainer.appGroup)=/path/to/AppGroups/\(LucidPalContainer.appGroup)")
        }
        return container
    }

    /// `WidgetCenter.shared.reloadTimelines(ofKind:)`, and what the host answered.
    static func reloadWidget() {
        let center = WidgetCenter.shared
        if center.appIdentifier == nil { center.appIdentifier = "app.lucidpal" }
        center.reloadTimelines(ofKind: LucidPalWidget.kind)
        if case .success(let result)? = center.lastReloadResult {
            for outcome in result.outcomes {
                print("\(outcome.kind) \(outcome.id): \(outcome.outcome.rawValue)\(outcome.reason.map { " (\($0.rawValue))" } ?? "")")
            }
        }
    }
}
