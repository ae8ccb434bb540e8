import WidgetHostProtocol

/// A request's optional `environment` (protocol version 2): the colour scheme, rendering
/// mode, container background and scale to render the entry's view in. Unknown values fall
/// back to the defaults; anything but an object is an error that says so.
enum RequestEnvironment {
    static func parse(_ value: JSONValue?) throws(JSONRPCError) -> ViewEnvironment {
        guard let value, value != .null else { return ViewEnvironment() }
        guard case .object = value, let environment = try? value.decode(as: ViewEnvironment.self) else {
            throw .invalidParams(
                "\"environment\" must be an object such as {\"colorScheme\": \"dark\", \"widgetRenderingMode\": \"accented\"}")
        }
        return environment
    }
}
