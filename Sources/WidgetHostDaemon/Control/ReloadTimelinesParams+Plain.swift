import WidgetHostProtocol

extension ReloadTimelinesParams {
    /// The params of a plain `reloadTimelines` — an object whose `kind` is a string, `app` a
    /// string or null or absent, `foreground` a Bool or null or absent, other members ignored —
    /// read straight from the object; nil for anything else, which the Codable path decides
    /// (and words the refusal of). The same value as the Codable path for what it takes
    /// (`ReloadParamsFastPathTests`). On a cold reload's path before the spawn: through
    /// `JSONValueDecoder` it was ~45 k instructions (callgrind, issue 16), ~5× that in time with
    /// the daemon's code cold after an idle wait.
    static func plain(_ params: JSONValue?) -> ReloadTimelinesParams? {
        guard case .object(let members)? = params, case .string(let kind)? = members["kind"] else { return nil }
        var app: String?
        switch members["app"] {
        case nil, .null?: app = nil
        case .string(let value)?: app = value
        default: return nil
        }
        var foreground: Bool?
        switch members["foreground"] {
        case nil, .null?: foreground = nil
        case .bool(let value)?: foreground = value
        default: return nil
        }
        return ReloadTimelinesParams(kind: kind, app: app, foreground: foreground)
    }
}
