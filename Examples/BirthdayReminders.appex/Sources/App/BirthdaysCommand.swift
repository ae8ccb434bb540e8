import ArgumentParser
import BirthdayRemindersShared
import Foundation
import WidgetKit

/// Plays the Birthday Reminders app: changes the birthdays in the app group, then tells
/// the widget host, the way the app calls `WidgetCenter.shared.reloadAllTimelines()`
/// after every contact sync (seeds/000 "Pattern 4").
@main
struct BirthdaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "birthdays",
        abstract: "The Birthday Reminders app, on the command line.",
        discussion: """
            Birthdays live in birthdays.json in the app group group.com.birthdayreminders,
            which the widget extension reads. Every change is written atomically and then
            reloads the app's widgets through widgethostd (WidgetCenter), which answers per
            widget: started, coalesced or deferred, and why.

            The container is found as the extension finds it, from WIDGETHOST_APP_GROUPS
            (id=path pairs), or from --app-groups DIR (the daemon's app_groups.path).
            """,
        subcommands: [ListBirthdays.self, AddBirthday.self, RemoveBirthday.self, ImportBirthdays.self],
        defaultSubcommand: ListBirthdays.self)
}

struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("app-groups"), help: ArgumentHelp("The daemon's app group root (app_groups.path).", valueName: "DIR"))
    var appGroups: String?

    @Flag(name: .customLong("no-reload"), help: "Change the data without asking widgethostd to reload the widgets.")
    var noReload = false

    func store() throws -> BirthdayStore {
        if let appGroups {
            return BirthdayStore(container: URL(fileURLWithPath: appGroups).appendingPathComponent(BirthdayStore.appGroup))
        }
        guard let store = BirthdayStore.shared() else {
            throw ValidationError(
                "no container for \(BirthdayStore.appGroup): set WIDGETHOST_APP_GROUPS=\(BirthdayStore.appGroup)=PATH or pass --app-groups DIR")
        }
        return store
    }

    /// The app's side of the contract: data first, then one reload call.
    func reloadWidgets() {
        guard !noReload else { return }
        let center = WidgetCenter.shared
        if center.appIdentifier == nil { center.appIdentifier = "com.birthdayreminders" }
        center.reloadAllTimelines()
        switch center.lastReloadResult {
        case .success(let result)?:
            for outcome in result.outcomes {
                let why = outcome.reason.map { " (\($0.rawValue))" } ?? ""
                print("  \(outcome.id) \(outcome.kind): \(outcome.outcome.rawValue)\(why)")
            }
        case .failure(let error)?:
            print("  widgets not reloaded: \(error)")
        case nil:
            break
        }
    }
}

struct ListBirthdays: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The birthdays, soonest first.")
    @OptionGroup var options: StoreOptions

    func run() throws {
        let upcoming = BirthdayCalculator.upcoming(try options.store().load(), from: Date(), limit: .max)
        if upcoming.isEmpty { print("No birthdays yet. Add one: birthdays add \"Ada Lovelace\" 12-10") }
        for birthday in upcoming {
            let turning = birthday.turning.map { " (turns \($0))" } ?? ""
            print("\(birthday.name): in \(birthday.daysUntil) days\(turning)")
        }
    }
}

struct AddBirthday: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add or replace one person's birthday.")
    @OptionGroup var options: StoreOptions
    @Argument(help: "The person's name.") var name: String
    @Argument(help: ArgumentHelp("The birthday, month and day.", valueName: "MM-DD")) var date: String
    @Option(help: "Year of birth, to show the age they turn.") var year: Int?

    func run() throws {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2 else { throw ValidationError("the date is MM-DD, e.g. 12-10; got \(date)") }
        let birthday = try Birthday(name: name, month: parts[0], day: parts[1], year: year).validated()
        let store = try options.store()
        var birthdays = try store.load().filter { $0.name != name }
        birthdays.append(birthday)
        try store.save(birthdays)
        print("Added \(name).")
        options.reloadWidgets()
    }
}

struct RemoveBirthday: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove one person's birthday.")
    @OptionGroup var options: StoreOptions
    @Argument(help: "The person's name.") var name: String

    func run() throws {
        let store = try options.store()
        let birthdays = try store.load()
        guard birthdays.contains(where: { $0.name == name }) else { throw ValidationError("no birthday for \(name)") }
        try store.save(birthdays.filter { $0.name != name })
        print("Removed \(name).")
        options.reloadWidgets()
    }
}

struct ImportBirthdays: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Replace the birthdays with those in a JSON file (a contact sync).")
    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("{\"birthdays\": [{\"name\", \"month\", \"day\", \"year\"?}]}", valueName: "FILE"))
    var file: String

    func run() throws {
        let birthdays = try BirthdayStore.decode(Data(contentsOf: URL(fileURLWithPath: file))).map { try $0.validated() }
        try options.store().save(birthdays)
        print("Imported \(birthdays.count) birthdays.")
        options.reloadWidgets()
    }
}
