import ArgumentParser
import Foundation
import WidgetHostClient

/// `reload --kind K` and `reload --all --app A` (with `--app`, `--foreground`, `--json`,
/// `--socket`, each at most once, as `--name value` or `--name=value`) run without building
/// the parser's command tree; `ReloadCommand.perform` does the work for both paths. Any other
/// argument, a repeated or missing one, a value that is empty or starts with `-`, or a
/// combination `ReloadCommand.validate` refuses: nil, and the parser takes over.
/// `WIDGETHOST_FAST_PATH=0` turns it off (the tests compare both paths).
enum ReloadFastPath {
    struct Request: Equatable {
        var kind: String?
        var all = false
        var app: String?
        var foreground = false
        var connection = ConnectionSettings()
    }

    /// The variables the fast path reads, by `getenv`: building `ProcessInfo`'s whole
    /// environment cost about 1 M instructions each time it was asked (callgrind).
    static func environment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["WIDGETHOST_FAST_PATH", "WIDGETHOST_APP", ControlSocketPath.environmentVariable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// The request `arguments` (without the program's name) ask for, or nil when the parser should read them.
    static func parse(_ arguments: [String], environment: [String: String]) -> Request? {
        guard arguments.first == "reload", environment["WIDGETHOST_FAST_PATH"] != "0" else { return nil }
        var request = Request()
        request.connection.environment = environment
        var seen: Set<Substring> = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { return nil }
            var name = Substring(argument)
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                value = String(argument[argument.index(after: equals)...])
            }
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case "--kind", "--app", "--socket":
                if value == nil {
                    guard index < arguments.count else { return nil }
                    value = arguments[index]
                    index += 1
                }
                guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
                switch name {
                case "--kind": request.kind = value
                case "--app": request.app = value
                default: request.connection.socket = value
                }
            case "--all", "--foreground", "--json":
                guard value == nil else { return nil }
                switch name {
                case "--all": request.all = true
                case "--foreground": request.foreground = true
                default: request.connection.json = true
                }
            default:
                return nil
            }
        }
        // ReloadCommand.validate's rules: whatever it refuses, the parser says.
        switch (request.kind, request.all) {
        case (nil, false), (_?, true): return nil
        case (nil, true):
            guard ReloadCommand.resolvedApp(request.app, all: true, environment: environment) != nil else { return nil }
        default: break
        }
        return request
    }

    /// Runs a recognised reload and returns its exit status; nil when `arguments` are not one.
    /// `resumed`: the front sent it already (`ResumedRequest`).
    static func run(_ arguments: [String], environment: [String: String], resumed: ResumedRequest? = nil) -> Int32? {
        guard let request = parse(arguments, environment: environment) else { return nil }
        do {
            try ReloadCommand.perform(
                kind: request.kind, app: ReloadCommand.resolvedApp(request.app, all: request.all, environment: environment),
                foreground: request.foreground, connection: request.connection, resumed: resumed)
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            // What the parser's `main()` does with an error its command threw.
            WidgetHostCommand.exit(withError: error)
        }
    }
}
