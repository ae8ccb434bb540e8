import WidgetHostProtocol

/// The extensions currently loaded, and the answer to "which extension defines this kind?".
public struct Catalog: Sendable, Hashable {
    /// Sorted by id so that every lookup is deterministic.
    public private(set) var extensions: [ExtensionDescriptor] = []

    public init(_ extensions: [ExtensionDescriptor] = []) {
        self.extensions = extensions.sorted { $0.id < $1.id }
    }

    public func descriptor(of extensionID: String) -> ExtensionDescriptor? {
        extensions.first { $0.id == extensionID }
    }

    /// Every (extension, widget) pair that defines `kind`, optionally only those of `app`.
    func definitions(ofKind kind: String, app: String? = nil) -> [(ExtensionDescriptor, WidgetDescriptor)] {
        extensions.compactMap { ext in
            guard app == nil || ext.app == app, let widget = ext.widgets.first(where: { $0.kind == kind }) else {
                return nil
            }
            return (ext, widget)
        }
    }

    var allKinds: [String] { Array(Set(extensions.flatMap { $0.widgets.map(\.kind) })).sorted() }

    /// Resolves a kind to exactly one definition, or says why it cannot.
    func resolve(kind: String, app: String?) -> Result<(ExtensionDescriptor, WidgetDescriptor), HostError> {
        let matches = definitions(ofKind: kind, app: app)
        switch matches.count {
        case 1: return .success(matches[0])
        case 0:
            if let app, !definitions(ofKind: kind).isEmpty {
                return .failure(.kindNotInApp(kind: kind, app: app))
            }
            return .failure(.unknownKind(kind: kind, known: allKinds))
        default:
            return .failure(.ambiguousKind(kind: kind, apps: matches.map(\.0.app)))
        }
    }

    /// Resolves a control kind to exactly one extension's control, or says why it cannot.
    func resolveControl(kind: String, app: String?) -> Result<(ExtensionDescriptor, ControlDescriptor), HostError> {
        let matches = extensions.compactMap { ext -> (ExtensionDescriptor, ControlDescriptor)? in
            guard app == nil || ext.app == app, let control = ext.controls.first(where: { $0.kind == kind }) else {
                return nil
            }
            return (ext, control)
        }
        switch matches.count {
        case 1: return .success(matches[0])
        case 0:
            let known = Array(Set(extensions.flatMap { $0.controls.map(\.kind) })).sorted()
            return .failure(.unknownControl(kind: kind, known: known))
        default: return .failure(.ambiguousControl(kind: kind, apps: matches.map(\.0.app)))
        }
    }
}
