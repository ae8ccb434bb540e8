/// The simple forms of `widgethost reload`, read without swift-argument-parser and without
/// Foundation: `reload --kind K` and `reload --all --app A`, with `--app`, `--foreground`,
/// `--json` and `--socket`, each at most once, as `--name value` or `--name=value`.
///
/// Both executables read them with this one parser: the `widgethost` front (a static
/// executable with nothing of Foundation, which sends the reload itself and leaves `--json`
/// to the full CLI) and the full CLI's fast path (`ReloadFastPath`, which skips building the
/// parser's command tree). Any other argument, a repeated or missing one, a value that is
/// empty or starts with `-`, or a combination `ReloadCommand.validate` refuses: nil, and the
/// full CLI's parser reads the arguments and says what is wrong. `CLIFastPathTests` and
/// `CLIFrontTests` run every form both ways.
public struct ReloadArguments: Equatable, Sendable {
    public var kind: String?
    public var all = false
    /// `--app`, else `$WIDGETHOST_APP` with `--all` (`resolvedApp`).
    public var app: String?
    public var foreground = false
    public var json = false
    public var socket: String?

    public init(
        kind: String? = nil, all: Bool = false, app: String? = nil, foreground: Bool = false, json: Bool = false,
        socket: String? = nil
    ) {
        self.kind = kind
        self.all = all
        self.app = app
        self.foreground = foreground
        self.json = json
        self.socket = socket
    }

    /// The variables `parse` and `socketPath` read.
    public static let fastPathVariable = "WIDGETHOST_FAST_PATH"
    public static let appVariable = "WIDGETHOST_APP"
    public static let socketVariable = "WIDGETHOST_SOCKET"

    /// What `arguments` (without the program's name) ask for, or nil when the full CLI's parser
    /// should read them. `WIDGETHOST_FAST_PATH=0` says nil to everything (the tests compare
    /// both paths).
    public static func parse(_ arguments: [String], environment: (String) -> String?) -> ReloadArguments? {
        guard arguments.first == "reload", environment(fastPathVariable) != "0" else { return nil }
        var request = ReloadArguments()
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
            case "--all", "--foreground", "--json":
                guard value == nil else { return nil }
                switch name {
                case "--all": request.all = true
                case "--foreground": request.foreground = true
                default: request.json = true
                }
            default:
                return nil
            }
        }
        // ReloadCommand.validate's rules: whatever it refuses, the parser says.
        switch (request.kind, request.all) {
        case (nil, false), (_?, true): return nil
        case (nil, true):
            guard let app = resolvedApp(request.app, all: true, environment: environment) else { return nil }
            request.app = app
        default: break
        }
        return request
    }

    /// The app a reload is for: `--app`, else `$WIDGETHOST_APP` for `--all` (an empty value is none).
    public static func resolvedApp(_ app: String?, all: Bool, environment: (String) -> String?) -> String? {
        if let app, !app.isEmpty { return app }
        guard all, let app = environment(appVariable), !app.isEmpty else { return nil }
        return app
    }

    /// The control socket: `--socket`, else `$WIDGETHOST_SOCKET`, else /run/widgethost.sock
    /// (`ControlSocketPath.resolve`'s rule; the front cannot link WidgetHostClient).
    public func socketPath(environment: (String) -> String?) -> String {
        if let socket, !socket.isEmpty { return socket }
        if let path = environment(Self.socketVariable), !path.isEmpty { return path }
        return "/run/widgethost.sock"
    }

    /// `reloadTimelines` for `--kind`, `reloadAllTimelines` for `--all`.
    public var method: String { kind == nil ? "reloadAllTimelines" : "reloadTimelines" }

    /// The request line as the full CLI writes it (`JSONRPCMessage.encodedLine`: sorted keys,
    /// no spaces, id 1, a newline), or nil when a value holds a character the encoder would
    /// escape beyond `"` and `\` (a control character), which the front leaves to the full CLI.
    public var requestLine: [UInt8]? {
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
