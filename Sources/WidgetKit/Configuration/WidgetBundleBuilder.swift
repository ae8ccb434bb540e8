/// Collects the widgets listed in a `WidgetBundle`'s body, Control widgets among them (as
/// on iOS 18). `if` and `if #available` are accepted, as in WidgetKit, so bundles written
/// for several OS versions compile.
@resultBuilder
public enum WidgetBundleBuilder {
    public static func buildExpression(_ widget: some Widget) -> BundledWidgets {
        BundledWidgets(widget.body.definitions, widget.body.activityRenderers, widget.body.bundledControls)
    }

    public static func buildExpression(_ control: some ControlWidget) -> BundledWidgets {
        BundledWidgets([], [], control.body.controlDefinitions)
    }

    public static func buildBlock(_ parts: BundledWidgets...) -> BundledWidgets {
        BundledWidgets(parts.flatMap(\.definitions), parts.flatMap(\.activityRenderers), parts.flatMap(\.controls))
    }

    public static func buildOptional(_ part: BundledWidgets?) -> BundledWidgets {
        part ?? BundledWidgets([], [], [])
    }

    public static func buildEither(first part: BundledWidgets) -> BundledWidgets { part }

    public static func buildEither(second part: BundledWidgets) -> BundledWidgets { part }

    public static func buildLimitedAvailability(_ part: BundledWidgets) -> BundledWidgets { part }

    public static func buildArray(_ parts: [BundledWidgets]) -> BundledWidgets {
        BundledWidgets(parts.flatMap(\.definitions), parts.flatMap(\.activityRenderers), parts.flatMap(\.controls))
    }
}

/// The widgets of a bundle, in the order they were listed. Built by `WidgetBundleBuilder`;
/// `init()` (an empty list) exists only because every `Widget` has one.
public struct BundledWidgets: Widget {
    let definitions: [WidgetDefinition]
    let activityRenderers: [ActivityRenderer]
    let controls: [ControlDefinition]

    init(_ definitions: [WidgetDefinition], _ activityRenderers: [ActivityRenderer], _ controls: [ControlDefinition]) {
        self.definitions = definitions
        self.activityRenderers = activityRenderers
        self.controls = controls
    }

    public init() {
        definitions = []
        activityRenderers = []
        controls = []
    }

    public var body: some WidgetConfiguration {
        ResolvedConfiguration(definitions: definitions, activityRenderers: activityRenderers, bundledControls: controls)
    }
}
