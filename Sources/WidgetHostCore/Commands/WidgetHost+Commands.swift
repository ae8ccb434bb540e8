import Foundation
import WidgetHostProtocol

/// Commands from users and apps, and what happens around the host.
extension WidgetHost {
    mutating func addWidget(_ request: AddWidgetRequest, at now: Date) -> HostReply {
        if let pinned = request.pinnedBudget, pinned < 1 { return .refused(.invalidBudget(pinned)) }
        let ext: ExtensionDescriptor
        let descriptor: WidgetDescriptor
        switch catalog.resolve(kind: request.kind, app: request.app) {
        case .failure(let error): return .refused(error)
        case .success(let found): (ext, descriptor) = found
        }
        guard descriptor.supportedFamilies.contains(request.family) else {
            return .refused(
                .unsupportedFamily(kind: request.kind, family: request.family, supported: descriptor.supportedFamilies))
        }
        var configuration: IntentValues?
        if let schema = descriptor.intent {
            switch ConfigurationValidation.resolve(request.configuration ?? [:], schema: schema) {
            case .failure(let error): return .refused(.invalidConfiguration(kind: request.kind, error))
            case .success(let values): configuration = values
            }
            let checks = ConfigurationValidation.entityChecks(configuration ?? [:], schema: schema)
            if !checks.isEmpty {
                return checkEntities(
                    .add(request, configuration ?? [:]), kind: request.kind, ext: ext.id, parameters: checks, at: now)
            }
        } else if let given = request.configuration, !given.isEmpty {
            return .refused(.notConfigurable(kind: request.kind))
        }
        return completeAdd(request, ext: ext, configuration: configuration, at: now)
    }

    /// Adds a widget whose configuration has been checked.
    mutating func completeAdd(
        _ request: AddWidgetRequest, ext: ExtensionDescriptor, configuration: IntentValues?, at now: Date
    ) -> HostReply {
        let id = WidgetID("w\(host.nextWidgetNumber)")
        host.nextWidgetNumber += 1
        step.hostChanged = true
        let info = WidgetInfo(
            id: id.rawValue, kind: request.kind, family: request.family, app: ext.app, extension: ext.id,
            configuration: configuration)
        let record = WidgetRecord(info: info, addedAt: now, pinnedBudget: request.pinnedBudget)
        records[id] = record
        step.changed.insert(id)
        emit(.widgetAdded(record.noticeWidget, at: now))

        // Placeholder first, so there is something to show while the first timeline loads.
        enqueue(
            .placeholder(PlaceholderParams(kind: info.kind, family: info.family, environment: requestEnvironment)),
            for: id, on: ext.id, at: now)
        let outcome = requestReload(id, cause: .host, exemption: .added, at: now)
        return .widgetAdded(AddWidgetResult(widget: info, reload: outcome))
    }

    mutating func removeWidget(_ id: WidgetID, at now: Date) -> HostReply {
        guard let record = records.removeValue(forKey: id) else { return .refused(.unknownWidget(id)) }
        dropQueuedRequests(for: id)
        deadlines.schedule(.widget(id), at: nil)
        step.removed.insert(id)
        emit(.widgetRemoved(record.noticeWidget, at: now))
        return .widgetRemoved(record.info)
    }

    mutating func reloadTimelines(_ request: ReloadRequest, at now: Date) -> HostReply {
        let targets: [WidgetID]
        switch request.target {
        case .kind(let kind, let app):
            switch catalog.resolve(kind: kind, app: app) {
            case .failure(let error): return .refused(error)
            case .success(let (ext, _)):
                targets = records.values.filter { $0.info.kind == kind && $0.info.extension == ext.id }.map(\.id)
            }
        case .allOfApp(let app):
            targets = records.values.filter { $0.info.app == app }.map(\.id)
        case .widget(let id):
            guard records[id] != nil else { return .refused(.unknownWidget(id)) }
            targets = [id]
        }
        let exemption = Exemption(origin: request.origin)
        let outcomes = targets.map { requestReload($0, cause: .requested, exemption: exemption, at: now) }
        return .reload(ReloadResult(outcomes: outcomes, now: now))
    }

    mutating func recordView(_ id: WidgetID, at now: Date) -> HostReply {
        guard var record = records[id] else { return .refused(.unknownWidget(id)) }
        record.views = record.views.filter { $0 > now - configuration.budget.window }
        record.views.append(now)
        records[id] = record
        step.changed.insert(id)
        // More views can raise B, which can free a reload deferred by the budget.
        if record.pending != nil { tryStart(id, at: now) }
        return .viewRecorded(budgetStatus(of: records[id]!, at: now))
    }

    mutating func requestSnapshot(_ id: WidgetID, isPreview: Bool, at now: Date) -> HostReply {
        guard let record = records[id] else { return .refused(.unknownWidget(id)) }
        let params = SnapshotParams(
            kind: record.info.kind, family: record.info.family, isPreview: isPreview, environment: requestEnvironment,
            configuration: record.info.configuration)
        return .snapshotRequested(enqueue(.snapshot(params), for: id, on: record.info.extension, at: now))
    }

    /// A plain restart resumes every schedule where it was; a new boot id gives every
    /// instance one exempt reload.
    mutating func hostStarted(bootID: String, at now: Date) {
        let rebooted = host.bootID != nil && host.bootID != bootID
        if host.bootID != bootID {
            host.bootID = bootID
            step.hostChanged = true
        }
        for id in records.keys {
            if rebooted {
                _ = requestReload(id, cause: .host, exemption: .reboot, at: now)
            } else {
                advance(id, at: now)
            }
        }
    }

    mutating func catalogChanged(_ descriptors: [ExtensionDescriptor], at now: Date) {
        catalog = Catalog(descriptors)
        rebuildControls()
        redrawActivities()
        // Reloads that waited for a missing extension may start now; others may now wait for one.
        for (id, record) in records where record.pending != nil && record.running == nil {
            tryStart(id, at: now)
        }
    }

    mutating func significantTimeChange(at now: Date) {
        for id in records.keys {
            _ = requestReload(id, cause: .host, exemption: .significantTimeChange, at: now)
        }
    }
}
