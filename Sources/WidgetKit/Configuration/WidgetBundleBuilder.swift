/// Collects the widgets listed in a `WidgetBundle`'s body. `if` and `if #available`
/// are accepted, as in WidgetKit, so bundles written for several OS versions compile.
@resultBuilder
public enum WidgetBundleBuilder {
    public static func buildExpression(_ widget: some Widget) -> BundledWidgets {
        BundledWidgets(widget.body.definitions, widget.body.activityRenderers)
    }

    public static func buildBlock(_ parts: BundledWidgets...) -> BundledWidgets {
        BundledWidgets(parts.flatMap(\.definitions), parts.flatMap(\.activityRenderers))
    }

    public static func buildOptional(_ part: BundledWidgets?) -> BundledWidgets {
        part ?? BundledWidgets([], [])
    }

    public static func buildEither(first part: BundledWidgets) -> BundledWidgets { part }

    public static func buildEither(second part: BundledWidgets) -> BundledWidgets { part }

    public static func buildLimitedAvailability(_ part: BundledWidgets) -> BundledWidgets { part }

    public static func buildArray(_ parts: [BundledWidgets]) -> BundledWidgets {
        BundledWidgets(parts.flatMap(\.definitions), parts.flatMap(\.activityRenderers))
    }
}

/// The widgets of a bundle, in the order they were listed. Built by `WidgetBundleBuilder`;
/// `init()` (an empty list) exists only because every `Widget` has one.
public struct BundledWidgets: Widget {
    let definitions: [WidgetDefinition]
    let activityRenderers: [ActivityRenderer]

    init(_ definitions: [WidgetDefinition], _ activityRenderers: [ActivityRenderer]) {
        self.definitions = definitions
        self.activityRenderers = activityRenderers
    }

    public init() {
        definitions = []
        activityRenderers = []
    }

    public var body: some WidgetConfiguration {
        ResolvedConfiguration(definitions: definitions, activityRenderers: activityRenderers)
    }
}
