import Foundation
import NIOCore
import WidgetHostConfiguration
import WidgetHostDashboard
import WidgetHostProtocol
import WidgetHostRendering
#if canImport(Glibc)
import Glibc
#endif

/// The dashboard's view of the daemon: the runtime's status, timelines and catalog, its
/// notices, and write actions through the control dispatcher — as an admin peer, the
/// authority the dashboard's token stands for — so the page and the socket share every rule.
final class RuntimeDashboardSource: DashboardSource, @unchecked Sendable {
    let runtime: HostRuntime
    let settings: ControlSettings
    let appGroupsPath: String
    let rescan: () -> EventLoopFuture<ExtensionsResult>

    init(
        runtime: HostRuntime, settings: ControlSettings, appGroupsPath: String,
        rescan: @escaping () -> EventLoopFuture<ExtensionsResult>
    ) {
        self.runtime = runtime
        self.settings = settings
        self.appGroupsPath = appGroupsPath
        self.rescan = rescan
    }

    var eventLoop: any EventLoop { runtime.eventLoop }

    func dashboardSnapshot() -> DashboardSnapshot {
        eventLoop.preconditionInEventLoop()
        let status = (try? runtime.status(of: nil).get()) ?? StatusResult(now: runtime.now, widgets: [])
        var timelines: [String: TimelineResult] = [:]
        for widget in status.widgets {
            if case .success(let timeline) = runtime.timeline(of: widget.widget.id) { timelines[widget.widget.id] = timeline }
        }
        let activities = runtime.host.activityList(app: nil, all: false, at: runtime.now).map { info in
            LockScreenActivity(
                id: info.id, app: info.app, attributesType: info.attributesType, state: info.state,
                views: runtime.host.activities[info.id]?.views)
        }
        return DashboardSnapshot(
            now: status.now, widgets: status.widgets, timelines: timelines, catalog: runtime.catalog,
            appGroupsPath: appGroupsPath, activities: activities)
    }

    func subscribe(_ handler: @escaping (HostNotice) -> Void) -> Int {
        runtime.subscribe { handler($0.notice) }
    }

    func unsubscribe(_ id: Int) {
        runtime.unsubscribe(id)
    }

    func call(method: ControlMethod, params: JSONValue?) -> EventLoopFuture<DashboardCallResult> {
        eventLoop.preconditionInEventLoop()
        let dispatcher = ControlDispatcher(runtime: runtime, settings: settings, rescan: rescan)
        let peer = Peer(pid: getpid(), uid: getuid(), gid: getgid())
        switch dispatcher.dispatch(method: method.rawValue, params: params, peer: peer) {
        case .result(let result):
            return eventLoop.makeSucceededFuture(.result(result))
        case .encodedResult(let bytes):
            do { return eventLoop.makeSucceededFuture(.result(try WireCoding.decode(JSONValue.self, from: Data(bytes)))) } catch {
                return eventLoop.makeSucceededFuture(
                    .error(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "\(error)")))
            }
        case .error(let error):
            return eventLoop.makeSucceededFuture(.error(error))
        case .later(let future):
            return future.map { .result($0) }.recover {
                .error(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "\($0)"))
            }
        case .subscribed:
            return eventLoop.makeSucceededFuture(.error(.invalidParams("subscribe is /events on the dashboard")))
        }
    }
}
