import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostReloadArguments

/// `reload --kind K` and `reload --all --app A` run without building the parser's command
/// tree: `ReloadArguments` (shared with the `widgethost` front) reads them, and
/// `ReloadCommand.perform` does the work for both paths. Whatever `ReloadArguments` leaves
/// (nil), the parser takes over. `WIDGETHOST_FAST_PATH=0` turns it off (the tests compare
/// both paths).
enum ReloadFastPath {
    /// The variables the fast path reads, by `getenv`: building `ProcessInfo`'s whole
    /// environment cost about 1 M instructions each time it was asked (callgrind).
    static func environment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in [
            ReloadArguments.fastPathVariable, ReloadArguments.appVariable, ControlSocketPath.environmentVariable,
        ] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// Runs a recognised reload and returns its exit status; nil when `arguments` (without the
    /// program's name) are not one. `resumed`: the front sent it already (`ResumedRequest`).
    static func run(_ arguments: [String], environment: [String: String], resumed: ResumedRequest? = nil) -> Int32? {
        guard let request = ReloadArguments.parse(arguments, environment: { environment[$0] }) else { return nil }
        let connection = ConnectionSettings(socket: request.socket, json: request.json, environment: environment)
        do {
            try ReloadCommand.perform(
                kind: request.kind, app: request.app, foreground: request.foreground, connection: connection,
                resumed: resumed)
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            // What the parser's `main()` does with an error its command threw.
            WidgetHostCommand.exit(withError: error)
        }
    }
}
