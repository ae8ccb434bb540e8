import ArgumentParser
import Foundation
import WidgetKit
import WidgyShared

/// Plays the Widgy app: validates widget configs, saves them into the App Group, and
/// reloads the widget on save, as the app does.
@main
struct WidgyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgy",
        abstract: "Play the Widgy app: validate and save widget configs, set the data they bind to.",
        discussion: """
            Configs go to the App Group group.com.widgy (configs/{widget_id}.json and \
            configs/manifest.json), found through WIDGETHOST_APP_GROUPS \
            (group.com.widgy=/path/to/container). Saving reloads WidgyWidget with WidgetCenter.

            Examples:
              widgy validate Examples/Widgy.appex/sample-weather.json
              widgy save Examples/Widgy.appex/sample-weather.json
              widgy data weather.temperature 18
            """,
        subcommands: [Validate.self, Save.self, DataCommand.self])

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a config; every problem is printed with its path in the JSON. Exit 1 if any.")
        @Argument(help: "The config file.") var file: String

        func run() throws {
            let config = try WidgyApp.validate(file)
            print("\(file): valid (\(config.widgetID), \(config.supportedFamilies.map(\.rawValue).joined(separator: ", ")))")
        }
    }

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Validate a config, save it and reload the widget.")
        @Argument(help: "The config file.") var file: String

        func run() throws {
            _ = try WidgyApp.validate(file)
            let config = try WidgyApp.container().save(Data(contentsOf: URL(fileURLWithPath: file)))
            print("saved \(config.widgetID)")
            WidgyApp.reloadWidget()
        }
    }

    struct DataCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "data",
            abstract: "Set a value placeholders bind to ({{weather.temperature}}), or all of them from a file; then reload.")
        @Argument(help: "A dotted key, e.g. weather.temperature.") var key: String?
        @Argument(help: "The value: JSON (18, true, \"text\") or plain text.") var value: String?
        @Option(help: "A JSON object that replaces all the data.") var file: String?

        func validate() throws {
            guard (file == nil) == (key != nil && value != nil) else {
                throw ValidationError("give KEY VALUE, or --file FILE")
            }
        }

        func run() throws {
            let container = try WidgyApp.container()
            if let file {
                try container.replaceData(with: Data(contentsOf: URL(fileURLWithPath: file)))
                print("data from \(file)")
            } else if let key, let value {
                let json = (try? JSONDecoder().decode(JSON.self, from: Data(value.utf8))) ?? .string(value)
                try container.setData(key, to: json)
                print("\(key) = \(value)")
            }
            WidgyApp.reloadWidget()
        }
    }
}

enum WidgyApp {
    static func validate(_ file: String) throws -> WidgyConfig {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ValidationError("cannot read \(file): \(error.localizedDescription)")
        }
        switch ConfigValidator.validate(data) {
        case .success(let config):
            return config
        case .failure(let error):
            for problem in error.problems { FileHandle.standardError.write(Data("\(file): \(problem)\n".utf8)) }
            throw ExitCode.failure
        }
    }

    static func container() throws -> WidgyContainer {
        guard let container = WidgyContainer.shared else {
            throw ValidationError(
                "no container for the App Group \(WidgyContainer.appGroup); set "
                    + "WIDGETHOST_APP_GROUPS=\(WidgyContainer.appGroup)=/path/to/AppGroups/\(WidgyContainer.appGroup)")
        }
        return container
    }

    static func reloadWidget() {
        let center = WidgetCenter.shared
        if center.appIdentifier == nil { center.appIdentifier = "com.widgy" }
        center.reloadTimelines(ofKind: WidgyWidget.kind)
        if case .success(let result)? = center.lastReloadResult {
            for outcome in result.outcomes {
                print("\(outcome.kind) \(outcome.id): \(outcome.outcome.rawValue)\(outcome.reason.map { " (\($0.rawValue))" } ?? "")")
            }
        }
    }
}
