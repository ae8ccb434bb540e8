/// A Control widget (iOS 18): a button or a toggle for Control Center, the Lock Screen and
/// the Action button, listed in a `WidgetBundle` beside the widgets.
///
/// ```swift
/// struct LogWeightControl: ControlWidget {
///     var body: some ControlWidgetConfiguration {
///         StaticControlConfiguration(kind: "LogWeightControl", provider: LatestWeightProvider()) { weight in
///             ControlWidgetButton(action: LogWeightIntent()) {
///                 Label(weight.text, systemImage: "scalemass")
///             }
///         }
///         .displayName("Log Weight")
///     }
/// }
/// ```
///
/// Unlike Apple's, this protocol is not `@MainActor`: the extension answers the host on its
/// own threads, as it does for widgets.
public protocol ControlWidget {
    associatedtype Body: ControlWidgetConfiguration
    init()
    @ControlWidgetConfigurationBuilder var body: Body { get }
}
