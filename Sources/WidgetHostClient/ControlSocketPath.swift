/// Where the daemon's control socket is: the `--socket` value, else `WIDGETHOST_SOCKET`,
/// else `/run/widgethost.sock` (the path `widgethostd.socket` listens on).
public enum ControlSocketPath {
    public static let defaultPath = "/run/widgethost.sock"
    public static let environmentVariable = "WIDGETHOST_SOCKET"

    public static func resolve(explicit: String? = nil, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        return defaultPath
    }
}
