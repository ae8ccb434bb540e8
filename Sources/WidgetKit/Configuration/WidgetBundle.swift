/// Several widgets in one extension, listed in `body`:
///
/// ```swift
/// @main
/// struct BirthdayRemindersWidgetBundle: WidgetBundle {
///     var body: some Widget {
///         BirthdayHomeWidget()
///         BirthdayLockScreenWidget()
///     }
/// }
/// ```
public protocol WidgetBundle {
    associatedtype Body: Widget
    init()
    @WidgetBundleBuilder var body: Body { get }
}

extension WidgetBundle {
    /// Serves the extension channel on stdin/stdout for every widget in the bundle; never returns.
    public static func main() {
        ExtensionMain.run(named: "\(Self.self)") { try ExtensionServer(bundle: Self()) }
    }
}
