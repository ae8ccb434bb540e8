import Foundation
import NIOCore
import WidgetHostConfiguration
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// Maps a control-channel request onto the runtime: decodes params, checks who may call,
/// and turns the core's reply into a result or a JSON-RPC error. Runs on the runtime's loop.
struct ControlDispatcher {
    let runtime: HostRuntime
    let settings: ControlSettings
    /// Rescans plugins (owned by the daemon, which knows the plugin paths).
    let rescan: () -> EventLoopFuture<ExtensionsResult>
    /// The core's rule of who may do what (`ControlAuthority`), with this daemon's settings.
    let authority: ControlAuthority

    init(runtime: HostRuntime, settings: ControlSettings, rescan: @escaping () -> EventLoopFuture<ExtensionsResult>) {
        self.runtime = runtime
        self.settings = settings
        self.rescan = rescan
        authority = ControlAuthority(daemonUID: Self.daemonUID, adminGroupIDs: settings.adminGroupIDs, appUIDs: settings.appUIDs)
    }

    enum Outcome {
        case result(JSONValue)
        /// A result already encoded as JSON (`status`, from its cache).
        case encodedResult([UInt8])
        case error(JSONRPCError)
        /// The connection becomes a `subscribe` stream after this result.
        case subscribed(JSONValue)
        /// Answered later (a rescan runs extensions).
        case later(EventLoopFuture<JSONValue>)
    }

    func dispatch(method name: String, params: JSONValue?, peer connection: Peer?) -> Outcome {
        dispatch(method: name, params: params, as: controlPeer(connection))
    }

    /// The same for a peer already resolved: a connection resolves its own once
    /// (`ControlConnectionHandler`), not at every request.
    func dispatch(method name: String, params: JSONValue?, as peer: ControlPeer?) -> Outcome {
        guard let method = ControlMethod(rawValue: name) else {
            return .error(.methodNotFound(name, known: ControlMethod.allCases.map(\.rawValue)))
        }
        return dispatch(method, params: params, as: peer)
    }

    /// A known method: who may call it (`ControlAuthority`), then its params and the runtime.
    func dispatch(_ method: ControlMethod, params: JSONValue?, as peer: ControlPeer?) -> Outcome {
        let name = method.rawValue
        if let denial = authority.authorize(method, peer: peer) { return .error(permissionDenied(denial)) }
        do {
            switch method {
            case .reloadTimelines:
                let params = try ReloadTimelinesParams.plain(params) ?? decode(ReloadTimelinesParams.self, from: params, method: name)
                let app: String?
                switch authority.app(claimed: params.app, by: peer) {
                case .success(let claimed): app = claimed
                case .failure(let denial): return .error(permissionDenied(denial))
                }
                if let denial = authority.foreground(params.foreground == true, by: peer) {
                    return .error(permissionDenied(denial))
                }
                let origin: ReloadOrigin = params.foreground == true ? .foreground : .background
                return reply(runtime.apply(.reloadRequested(ReloadRequest(.kind(params.kind, app: app), origin: origin))))
            case .reloadAllTimelines:
                let params = try decode(ReloadAllTimelinesParams.self, from: params, method: name)
                let app: String?
                switch authority.app(claimed: params.app, by: peer) {
                case .success(let claimed): app = claimed
                case .failure(let denial): return .error(permissionDenied(denial))
                }
                if let denial = authority.foreground(params.foreground == true, by: peer) {
                    return .error(permissionDenied(denial))
                }
                let origin: ReloadOrigin = params.foreground == true ? .foreground : .background
                return reply(runtime.apply(.reloadRequested(ReloadRequest(.allOfApp(app ?? params.app), origin: origin))))
            case .getCurrentConfigurations:
                let params = try decodeOptional(GetCurrentConfigurationsParams.self, from: params, method: name)
                let app: String?
                switch authority.app(claimed: params?.app, by: peer) {
                case .success(let claimed): app = claimed
                case .failure(let denial): return .error(permissionDenied(denial))
                }
                return .result(try JSONValue(encoding: runtime.currentConfigurations(app: app)))
            case .status:
                let params = try decodeOptional(StatusParams.self, from: params, method: name)
                switch try runtime.statusReply(of: params?.id) {
                case .success(let bytes): return .encodedResult(bytes)
                case .failure(let error): return .error(refusal(error))
                }
            case .timeline:
                let params = try decode(WidgetIDParams.self, from: params, method: name)
                return encode(runtime.timeline(of: params.id))
            case .addWidget:
                let params = try decode(AddWidgetParams.self, from: params, method: name)
                return reply(
                    runtime.apply(
                        .widgetAdded(
                            AddWidgetRequest(
                                kind: params.kind, family: params.family, app: params.app, configuration: params.configuration))))
            case .removeWidget:
                let params = try decode(WidgetIDParams.self, from: params, method: name)
                return reply(runtime.apply(.widgetRemoved(WidgetID(params.id))))
            case .recordView:
                let params = try decode(WidgetIDParams.self, from: params, method: name)
                return reply(runtime.apply(.viewRecorded(WidgetID(params.id))))
            case .extensions:
                return .result(try JSONValue(encoding: runtime.catalog))
            case .rescan:
                return .later(rescan().flatMapThrowing { try JSONValue(encoding: $0) })
            case .subscribe:
                return .subscribed(try JSONValue(encoding: SubscribeResult()))
            case .clock:
                let params = try decodeOptional(ClockParams.self, from: params, method: name) ?? ClockParams()
                if params.advance != nil || params.until != nil, !authority.isAdmin(peer) {
                    return .error(
                        JSONRPCError(
                            code: JSONRPCError.permissionDeniedCode,
                            message: "advancing the clock needs root, the daemon's own user or a group in control.admin_groups"))
                }
                return .later(try runtime.advanceClock(params).flatMapThrowing { try JSONValue(encoding: $0) })
            case .configureWidget:
                let params = try decode(ConfigureWidgetParams.self, from: params, method: name)
                return reply(runtime.apply(.widgetConfigured(WidgetID(params.id), params.configuration)))
            case .options:
                let params = try decode(OptionsParams.self, from: params, method: name)
                return reply(
                    runtime.apply(.optionsRequested(kind: params.kind, parameter: params.parameter, app: params.app)))
            case .tap:
                let params = try decode(TapParams.self, from: params, method: name)
                return reply(
                    runtime.apply(.tapped(TapRequest(widget: WidgetID(params.id), button: params.button, intent: params.intent))))
            case .tapControl:
                let params = try decode(TapControlParams.self, from: params, method: name)
                return reply(runtime.apply(.controlTapped(kind: params.kind, app: params.app)))
            case .controls:
                let params = try decodeOptional(ControlsParams.self, from: params, method: name) ?? ControlsParams()
                return .result(try JSONValue(encoding: runtime.host.controlStatuses(kind: params.kind, app: params.app)))
            case .reloadControls:
                let params = try decodeOptional(ControlsParams.self, from: params, method: name) ?? ControlsParams()
                let app: String?
                switch authority.app(claimed: params.app, by: peer) {
                case .success(let claimed): app = claimed
                case .failure(let denial): return .error(permissionDenied(denial))
                }
                return reply(runtime.apply(.controlsReloadRequested(kind: params.kind, app: app)))
            case .device:
                let params = try decodeOptional(DeviceParams.self, from: params, method: name) ?? DeviceParams()
                guard params.locale != nil || params.dynamicTypeSize != nil else {
                    let device = runtime.host.device
                    return .result(
                        try JSONValue(
                            encoding: DeviceResult(locale: device.locale, dynamicTypeSize: device.dynamicTypeSize, reloads: [])))
                }
                if !authority.isAdmin(peer) {
                    return .error(
                        JSONRPCError(
                            code: JSONRPCError.permissionDeniedCode,
                            message: "changing the device's settings needs root, the daemon's own user or a group in control.admin_groups"))
                }
                return reply(
                    runtime.apply(.deviceChanged(DeviceSettings(locale: params.locale, dynamicTypeSize: params.dynamicTypeSize))))
            case .activityRequest, .activityUpdate, .activityEnd, .activityList, .activityGet, .activityPushToStartToken,
                .pushActivity, .pushWidget, .pushTokens:
                return try dispatchActivity(method, params: params, peer: peer)
            }
        } catch let error as JSONRPCError {
            return .error(error)
        } catch {
            return .error(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "Internal error: \(error)"))
        }
    }

    func reply(_ reply: HostReply?) -> Outcome {
        if case .activity(let activity)? = reply { return activityOutcome(activity) }
        if case .answerLater(let id)? = reply {
            return .later(
                runtime.answer(to: id).flatMapThrowing { answer in
                    switch Self.result(answer) {
                    case .success(let value): return value
                    case .failure(let error): throw error
                    }
                })
        }
        // The two answers on the reload and fill paths go to bytes in one pass (a reload's
        // member by member, `ReloadResult.wireBytes`), not through a `JSONValue` written out
        // again: the same bytes (ReplyEncodingTests).
        do {
            switch reply {
            case .reload(let result)?: return .encodedResult(result.wireBytes)
            case .widgetAdded(let result)?: return .encodedResult(try WireCoding.encodeBytes(result))
            default: break
            }
        } catch {
            return .error(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "Internal error: \(error)"))
        }
        switch Self.result(reply) {
        case .success(let value): return .result(value)
        case .failure(let error): return .error(error)
        }
    }

    /// A reply of the core as the result or the error the client gets.
    static func result(_ reply: HostReply?) -> Result<JSONValue, JSONRPCError> {
        do {
            switch reply {
            case .refused(let error)?:
                return .failure(JSONRPCError(code: JSONRPCError.requestRefusedCode, message: error.description))
            case .answerLater?: return .failure(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "answered twice"))
            case .reload(let result)?: return .success(try JSONValue(encoding: result))
            case .widgetAdded(let result)?: return .success(try JSONValue(encoding: result))
            case .widgetRemoved(let info)?: return .success(try JSONValue(encoding: info))
            case .viewRecorded(let budget)?: return .success(try JSONValue(encoding: budget))
            case .snapshotRequested(let id)?: return .success(.object(["request": .integer(id.value)]))
            case .configured(let result)?: return .success(try JSONValue(encoding: result))
            case .options(let result)?: return .success(try JSONValue(encoding: result))
            case .tapped(let result)?: return .success(try JSONValue(encoding: result))
            case .controlsReloaded(let result)?: return .success(try JSONValue(encoding: result))
            case .device(let result)?: return .success(try JSONValue(encoding: result))
            case .activity?:
                return .failure(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "activity replies are answered at once"))
            case nil: return .success(.null)
            }
        } catch {
            return .failure(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "Internal error: \(error)"))
        }
    }

    private func encode<T: Encodable>(_ result: Result<T, HostError>) -> Outcome {
        switch result {
        case .success(let value):
            do { return .result(try JSONValue(encoding: value)) } catch {
                return .error(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "Internal error: \(error)"))
            }
        case .failure(let error): return .error(refusal(error))
        }
    }

    private func refusal(_ error: HostError) -> JSONRPCError {
        JSONRPCError(code: JSONRPCError.requestRefusedCode, message: error.description)
    }

    func decode<T: Decodable>(_ type: T.Type, from params: JSONValue?, method: String) throws -> T {
        guard let params else {
            throw JSONRPCError.invalidParams("\(method) needs params (an object); see docs/protocol.md")
        }
        if case .array = params {
            // Every method is declared "paramStructure": "by-name" in docs/openrpc.json.
            throw JSONRPCError.invalidParams("\(method) takes its params by name, as an object (docs/openrpc.json); got an array")
        }
        do { return try params.decode(as: T.self) } catch {
            throw JSONRPCError.invalidParams("\(method): \(DecodingFailure.describe(error, root: "params"))")
        }
    }

    func decodeOptional<T: Decodable>(_ type: T.Type, from params: JSONValue?, method: String) throws -> T? {
        guard let params, params != .object([:]), params != .array([]) else { return nil }
        return try decode(type, from: params, method: method)
    }

    /// The daemon's own uid, read once: it never changes, and `getuid` was a system call per request.
    private static let daemonUID = getuid()

    /// The connection's peer as the core's rule sees it: whether it is one of this daemon's
    /// extension processes (its process group, which the sandbox's seccomp filter does not let
    /// it leave). A connection asks once, at its first request (`ControlConnectionHandler`).
    func controlPeer(_ peer: Peer?) -> ControlPeer? {
        guard let peer else { return nil }
        return ControlPeer(
            uid: peer.uid, gid: peer.gid, groups: peer.groups,
            extensionBundleID: runtime.supervisor.processTable.extensionBundleID(ofPeer: peer.pid))
    }

    func permissionDenied(_ denial: ControlAuthority.Denial) -> JSONRPCError {
        JSONRPCError(code: JSONRPCError.permissionDeniedCode, message: denial.description)
    }

    /// `control.app_uids` pins an app id to the uids allowed to claim it; an extension acts
    /// for its own app only.
    func appClaimError(_ app: String?, peer: ControlPeer?) -> JSONRPCError? {
        switch authority.app(claimed: app, by: peer) {
        case .success: nil
        case .failure(let denial): permissionDenied(denial)
        }
    }
}
