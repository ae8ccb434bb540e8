import Foundation
import WidgetHostProtocol

/// `POST /api/widgets/ID/tap`: a click on a `Button(intent:)` or `Toggle(isOn:intent:)` drawn
/// in a widget. It is the control method `tap` — the same path as `widgethost tap ID BUTTON`,
/// with the same authority (the bearer token stands for an admin peer) — with the widget
/// from the path and `{"button": "b1"}` (or `{"intent": {…}}`) as the body.
enum TapRoute {
    static let bodyHelp =
        "send the button as {\"button\": \"b1\"} (its id, its intent's type or title, or its label), "
        + "or an empty body when the widget shows one button; the widget comes from the path"

    /// The widget id of `widgets/ID/tap`, or nil for any other action name.
    static func widget(in name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "widgets", parts[2] == "tap", !parts[1].isEmpty else { return nil }
        return String(parts[1]).removingPercentEncoding
    }

    /// The `tap` params for `widget` and the request's body; nil when the body is not an
    /// object or names another widget.
    static func params(widget: String, body: JSONValue?) -> JSONValue? {
        var fields: [String: JSONValue]
        switch body {
        case nil, .null?: fields = [:]
        case .object(let given)?: fields = given
        default: return nil
        }
        if let named = fields["id"], named != .string(widget) { return nil }
        fields["id"] = .string(widget)
        return .object(fields)
    }
}
