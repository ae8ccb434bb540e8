import WidgetHostProtocol

/// What the archiver carries down the tree: the environment the views read, and how deep
/// it is (a view whose body contains itself would otherwise recurse until the stack ends).
public struct _ArchiveContext {
    public var environment: EnvironmentValues
    var depth = 0

    /// Deeper than any widget: the host refuses archives past 64 levels anyway.
    static let maximumDepth = 512

    public init(environment: EnvironmentValues) { self.environment = environment }

    /// The archive node of `view` in this context.
    public func archive<V: View>(_ view: V) -> ViewNode {
        if depth >= Self.maximumDepth { return ViewNode(.unknown(type: "(view nested too deeply)")) }
        var inner = self
        inner.depth += 1
        if let primitive = view as? any _PrimitiveView {
            return primitive._archive(in: inner)
        }
        // A composed view reads `@Environment` while its body is evaluated.
        let body = EnvironmentValues.$current.withValue(environment) { view.body }
        return inner.archive(body)
    }

    /// The nodes of a builder's content as children of a stack: groups without modifiers of
    /// their own are spliced in, and a group's modifiers apply to each of its children, as
    /// in SwiftUI (`Group { A; B }.font(.caption)` is `A.font(.caption)`, `B.font(.caption)`).
    public func children<V: View>(_ view: V) -> [ViewNode] {
        Self.splice(archive(view))
    }

    static func splice(_ node: ViewNode) -> [ViewNode] {
        switch node.content {
        case .group(let children):
            return children.flatMap { child in
                var child = child
                child.modifiers += node.modifiers
                return splice(child)
            }
        case .empty where node.modifiers.isEmpty:
            return []
        default:
            return [node]
        }
    }

    /// A context whose environment is changed by `change`.
    public func with(_ change: (inout EnvironmentValues) -> Void) -> _ArchiveContext {
        var copy = self
        change(&copy.environment)
        return copy
    }
}

/// Turns a view into an archive node. WidgetKit calls it for each entry, with the
/// environment of the request (family, colour scheme, rendering mode, …).
public enum _ViewArchiver {
    public static func archive<V: View>(_ view: V, environment: EnvironmentValues) -> ViewNode {
        // A group at the root (several views in a body) keeps its children.
        var node = _ArchiveContext(environment: environment).archive(view)
        IntentControlNumbering.number(&node)
        return node
    }
}
