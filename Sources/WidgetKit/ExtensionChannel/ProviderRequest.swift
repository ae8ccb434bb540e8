import WidgetHostProtocol

/// What the host asks a widget's provider for: the params of `placeholder/get`,
/// `snapshot/get` or `timeline/get`, checked against the widgets this extension offers. Read by hand rather than through the Codable param
/// types so that every mistake gets a sentence naming the field and the fix.
///
/// `kind` and `family` are required. `isPreview` (snapshot/get) defaults to false;
/// `widgetId` and `now` (timeline/get) are not used by the SDK, but must have the right
/// type when present. Unknown fields are ignored.
struct ProviderRequest {
    let definition: WidgetDefinition
    let context: TimelineProviderContext
    /// The widget's configuration (snapshot/get, timeline/get): its intent's values by
    /// parameter name; empty when absent, and for a static kind.
    var configuration: IntentValues = [:]

    static func parse(
        _ method: ExtensionMethod, params: JSONValue?, widgets: [WidgetDefinition]
    ) throws(JSONRPCError) -> ProviderRequest {
        guard case .object(let fields)? = params else {
            throw .invalidParams("\(method.rawValue) needs params \(expectedParams(method))")
        }
        let kind = try string(fields, "kind", method)
        let familyName = try string(fields, "family", method)

        guard let definition = widgets.first(where: { $0.kind == kind }) else {
            let offered = widgets.map { "\"\($0.kind)\"" }.joined(separator: ", ")
            throw .invalidParams("unknown widget kind \"\(kind)\"; this extension offers \(offered)")
        }
        let family: WidgetFamily
        switch WidgetFamily.parse(familyName) {
        case .success(let parsed): family = parsed
        case .failure(let unknown): throw .invalidParams(unknown.description)
        }
        guard definition.supportedFamilies.contains(family) else {
            let supported = definition.supportedFamilies.map(\.rawValue).joined(separator: ", ")
            throw .invalidParams(
                "\(kind) does not support \(family); its supported families are \(supported) "
                    + "(add it to .supportedFamilies(_:) to offer it)")
        }

        var isPreview = false
        switch method {
        case .snapshot:
            if let value = fields["isPreview"] {
                guard case .bool(let flag) = value else {
                    throw .invalidParams("\"isPreview\" must be true or false")
                }
                isPreview = flag
            }
        case .timeline:
            if let value = fields["widgetId"], value.stringValue == nil {
                throw .invalidParams("\"widgetId\" must be a string")
            }
            if let value = fields["now"], value.stringValue.flatMap(RFC3339.parse) == nil {
                throw .invalidParams("\"now\" must be an RFC 3339 date such as \"2026-02-15T08:00:00Z\"")
            }
        case .initialize, .placeholder, .intentPerform, .intentOptions, .controlValue, .activityRender:
            break
        }
        var configuration: IntentValues = [:]
        if method == .snapshot || method == .timeline, let value = fields["configuration"], value != .null {
            guard case .object(let values) = value else {
                throw .invalidParams("\"configuration\" must be an object of the intent's values by parameter name")
            }
            configuration = values
        }
        var context = TimelineProviderContext(family: family, isPreview: isPreview)
        context.viewEnvironment = try RequestEnvironment.parse(fields["environment"])
        return ProviderRequest(definition: definition, context: context, configuration: configuration)
    }

    private static func string(
        _ fields: [String: JSONValue], _ name: String, _ method: ExtensionMethod
    ) throws(JSONRPCError) -> String {
        guard let value = fields[name] else {
            throw .invalidParams("\(method.rawValue) needs \"\(name)\" in its params \(expectedParams(method))")
        }
        guard let string = value.stringValue else {
            throw .invalidParams("\"\(name)\" must be a string")
        }
        return string
    }

    private static func expectedParams(_ method: ExtensionMethod) -> String {
        switch method {
        case .initialize: "{}"
        case .placeholder: "{kind, family}"
        case .snapshot: "{kind, family, isPreview, configuration?}"
        case .timeline: "{kind, family, widgetId, now, configuration?}"
        case .intentPerform: "{intent, kind, widgetId?, now}"
        case .intentOptions: "{kind, parameter}"
        case .controlValue: "{kind, now}"
        case .activityRender: "{activityId, attributesType, attributes, state, isStale?}"
        }
    }
}
