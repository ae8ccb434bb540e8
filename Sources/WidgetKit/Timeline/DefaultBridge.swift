/// Catches a provider that implements neither member of a pair (`getTimeline` /
/// `timeline`, `getSnapshot` / `snapshot`). The two default implementations call each
/// other; without this check such a provider would spawn tasks forever until the host
/// killed it for its memory, with nothing to say why. Instead the extension stops with
/// a message naming the provider and the method to write, which the host logs.
///
/// The mark is a task-local, so it follows the call from one default into the other
/// (an unstructured `Task` inherits task-locals) and nowhere else.
enum DefaultBridge {
    enum Pair: Sendable {
        case snapshot, timeline
    }

    struct Key: Sendable, Hashable {
        let provider: ObjectIdentifier
        let pair: Pair

        init(_ provider: Any.Type, _ pair: Pair) {
            self.provider = ObjectIdentifier(provider)
            self.pair = pair
        }
    }

    @TaskLocal static var active: Key?

    static func checkNotRecursing(_ provider: Any.Type, _ pair: Pair) {
        guard active == Key(provider, pair) else { return }
        let methods =
            switch pair {
            case .snapshot: "getSnapshot(in:completion:) nor snapshot(in:)"
            case .timeline: "getTimeline(in:completion:) nor timeline(in:)"
            }
        fatalError("\(provider) implements neither \(methods); a TimelineProvider must implement one of them")
    }
}
