import Foundation
import NIOCore
import WidgetHostProtocol
import WidgetHostRendering

/// What the dashboard needs from the host it shows. The daemon implements it over its
/// runtime; a test implements it with fixed values. Everything but `eventLoop` is called on
/// `eventLoop`, the loop the host's core runs on, so reads see one consistent state.
public protocol DashboardSource: AnyObject, Sendable {
    var eventLoop: any EventLoop { get }
    /// Every widget's status, its timeline and the catalog, as of now.
    func dashboardSnapshot() -> DashboardSnapshot
    /// Calls `handler` with every notice, on `eventLoop`, until `unsubscribe`.
    func subscribe(_ handler: @escaping (HostNotice) -> Void) -> Int
    func unsubscribe(_ id: Int)
    /// A write action, as the control method of that name with these params, with the
    /// authority of the control socket's admin peers (the token stands for it).
    func call(method: ControlMethod, params: JSONValue?) -> EventLoopFuture<DashboardCallResult>
}

/// The reply to a write action: the control method's result or its JSON-RPC error.
public enum DashboardCallResult: Sendable {
    case result(JSONValue)
    case error(JSONRPCError)
}

/// The host at one instant, as the dashboard draws it.
public struct DashboardSnapshot: Sendable {
    public var now: Date
    public var widgets: [WidgetStatus]
    /// By widget id.
    public var timelines: [String: TimelineResult]
    public var catalog: ExtensionsResult
    /// `app_groups.path`: images may come from an extension's app group containers there.
    public var appGroupsPath: String
    /// The Live Activities not yet dismissed, with the views their extensions last drew.
    public var activities: [LockScreenActivity]

    public init(
        now: Date, widgets: [WidgetStatus], timelines: [String: TimelineResult], catalog: ExtensionsResult,
        appGroupsPath: String, activities: [LockScreenActivity] = []
    ) {
        self.activities = activities
        self.now = now
        self.widgets = widgets
        self.timelines = timelines
        self.catalog = catalog
        self.appGroupsPath = appGroupsPath
    }
}
