#if canImport(Glibc)
import Glibc
#endif

/// The reloads the front sends itself: `reload --kind K` and `reload --all --app A`, with
/// `--app`, `--foreground` and `--socket`, each at most once, as `--name value` or
/// `--name=value`. The same forms as the full CLI's `ReloadFastPath` (CLIFastPathTests runs
/// both), less `--json`, whose pretty-printed answer the full CLI writes. Anything else: nil,
/// and the full CLI runs with the same arguments.
struct FrontRequest: Equatable {
    var kind: String?
    var all = false
    var app: String?
    var foreground = false
    var socket: String?

    /// The request `arguments` (without the program's name) ask for, or nil.
    static func parse(_ arguments: [String], environment: (String) -> String?) -> FrontRequest? {
        guard arguments.first == "reload", environment("WIDGETHOST_FAST_PATH") != "0" else { return nil }
        var request = FrontRequest()
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
                default: request.socket = value
                }
            case "--all", "--foreground":
                guard value == nil else { return nil }
                if name == "--all" { request.all = true } else { request.foreground = true }
            default:
                return nil
            }
        }
        switch (request.kind, request.all) {
        case (nil, false), (_?, true): return nil
        case (nil, true):
            // --app, else $WIDGETHOST_APP (ReloadCommand.resolvedApp).
            if request.app == nil {
                guard let app = environment("WIDGETHOST_APP"), !app.isEmpty else { return nil }
                request.app = app
            }
        default: break
        }
        return request
    }

    /// The socket: --socket, else $WIDGETHOST_SOCKET, else /run/widgethost.sock (ControlSocketPath).
    func socketPath(environment: (String) -> String?) -> String {
        if let socket { return socket }
        if let path = environment("WIDGETHOST_SOCKET"), !path.isEmpty { return path }
        return "/run/widgethost.sock"
    }

    var method: String { kind == nil ? "reloadAllTimelines" : "reloadTimelines" }

    /// The request as the full CLI writes it (`WireCoding`: sorted keys, no spaces, id 1), or
    /// nil when a value holds a control character, whose escape the front leaves to the encoder.
    var line: [UInt8]? {
        var params: [(String, String)] = []
        if let app { params.append(("app", Self.quoted(app))) }
        if foreground { params.append(("foreground", "true")) }
        if let kind { params.append(("kind", Self.quoted(kind))) }
        guard !params.contains(where: { $0.1.utf8.contains { $0 < 0x20 } }) else { return nil }
        let members = params.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        return Array(#"{"id":1,"jsonrpc":"2.0","method":"\#(method)","params":{\#(members)}}"#.utf8) + [0x0A]
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
