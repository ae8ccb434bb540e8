/// The Swift types a method's params and result travel as. Both channels' methods map onto
/// them in an exhaustive switch, so a new method does not compile without its entry, and
/// `OpenRPCDocumentTests` checks docs/openrpc.json and docs/openrpc-extension.json against
/// them: the same methods, and every example decoding as these types.
public struct MethodWireTypes {
    public enum Params {
        /// The method reads no params (any given are ignored).
        case none
        /// Params may be left out, or be `{}`.
        case optional(any Codable.Type)
        case required(any Codable.Type)
    }

    public let params: Params
    public let result: any Codable.Type

    public init(params: Params, result: any Codable.Type) {
        self.params = params
        self.result = result
    }
}

extension ControlMethod {
    /// This method's params and result types (docs/openrpc.json describes the same).
    public var wireTypes: MethodWireTypes {
        switch self {
        case .reloadTimelines: MethodWireTypes(params: .required(ReloadTimelinesParams.self), result: ReloadResult.self)
        case .reloadAllTimelines: MethodWireTypes(params: .required(ReloadAllTimelinesParams.self), result: ReloadResult.self)
        case .getCurrentConfigurations:
            MethodWireTypes(params: .optional(GetCurrentConfigurationsParams.self), result: [WidgetInfo].self)
        case .status: MethodWireTypes(params: .optional(StatusParams.self), result: StatusResult.self)
        case .timeline: MethodWireTypes(params: .required(WidgetIDParams.self), result: TimelineResult.self)
        case .addWidget: MethodWireTypes(params: .required(AddWidgetParams.self), result: AddWidgetResult.self)
        case .removeWidget: MethodWireTypes(params: .required(WidgetIDParams.self), result: WidgetInfo.self)
        case .recordView: MethodWireTypes(params: .required(WidgetIDParams.self), result: BudgetStatus.self)
        case .extensions: MethodWireTypes(params: .none, result: ExtensionsResult.self)
        case .rescan: MethodWireTypes(params: .none, result: ExtensionsResult.self)
        case .subscribe: MethodWireTypes(params: .none, result: SubscribeResult.self)
        case .clock: MethodWireTypes(params: .optional(ClockParams.self), result: ClockResult.self)
        case .activityRequest: MethodWireTypes(params: .required(ActivityRequestParams.self), result: ActivityInfo.self)
        case .activityUpdate: MethodWireTypes(params: .required(ActivityUpdateParams.self), result: ActivityInfo.self)
        case .activityEnd: MethodWireTypes(params: .required(ActivityEndParams.self), result: ActivityInfo.self)
        case .activityList: MethodWireTypes(params: .optional(ActivityListParams.self), result: ActivityListResult.self)
        case .activityGet: MethodWireTypes(params: .required(ActivityIDParams.self), result: ActivityDetailResult.self)
        case .activityPushToStartToken:
            MethodWireTypes(params: .required(PushToStartTokenParams.self), result: PushTokenResult.self)
        case .pushActivity: MethodWireTypes(params: .required(ActivityPushParams.self), result: ActivityPushResult.self)
        case .pushWidget: MethodWireTypes(params: .required(WidgetPushParams.self), result: WidgetPushResult.self)
        case .pushTokens: MethodWireTypes(params: .optional(PushTokensParams.self), result: PushTokensResult.self)
        case .configureWidget:
            MethodWireTypes(params: .required(ConfigureWidgetParams.self), result: ConfigureWidgetResult.self)
        case .options: MethodWireTypes(params: .required(OptionsParams.self), result: IntentOptionsResult.self)
        case .tap: MethodWireTypes(params: .required(TapParams.self), result: TapResult.self)
        case .tapControl: MethodWireTypes(params: .required(TapControlParams.self), result: TapResult.self)
        case .controls: MethodWireTypes(params: .optional(ControlsParams.self), result: [ControlStatus].self)
        case .reloadControls: MethodWireTypes(params: .optional(ControlsParams.self), result: ReloadControlsResult.self)
        case .device: MethodWireTypes(params: .optional(DeviceParams.self), result: DeviceResult.self)
        }
    }

    /// The params of the `event` notifications a `subscribe` stream carries.
    public static var eventNotificationType: any Codable.Type { HostNotice.self }
}

extension ExtensionMethod {
    /// This method's params and result types (docs/openrpc-extension.json describes the same).
    public var wireTypes: MethodWireTypes {
        switch self {
        case .initialize: MethodWireTypes(params: .required(InitializeParams.self), result: InitializeResult.self)
        case .placeholder: MethodWireTypes(params: .required(PlaceholderParams.self), result: TimelineEntryPayload.self)
        case .snapshot: MethodWireTypes(params: .required(SnapshotParams.self), result: TimelineEntryPayload.self)
        case .timeline: MethodWireTypes(params: .required(TimelineParams.self), result: TimelinePayload.self)
        case .intentPerform:
            MethodWireTypes(params: .required(IntentPerformParams.self), result: IntentPerformResult.self)
        case .intentOptions:
            MethodWireTypes(params: .required(IntentOptionsParams.self), result: IntentOptionsResult.self)
        case .controlValue: MethodWireTypes(params: .required(ControlValueParams.self), result: ControlValueResult.self)
        }
    }
}
