/// Supplies a widget's entries: a placeholder, a snapshot for the gallery, and timelines.
///
/// Implement `placeholder(in:)`, plus **one of each pair**:
/// - `getSnapshot(in:completion:)` or `snapshot(in:)`,
/// - `getTimeline(in:completion:)` or `timeline(in:)`.
///
/// Each member of a pair has a default implementation in terms of the other, so code
/// written in WidgetKit's completion-handler style and code written with `async` both
/// work unchanged. Implementing neither member of a pair is caught at the first request
/// (see `DefaultBridge`) rather than recursing forever.
///
/// Completion handlers may be called from any thread, once. The completion handlers are
/// `@Sendable` (as in current WidgetKit); a conforming type may still declare them without
/// `@Sendable`.
public protocol TimelineProvider: Sendable {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext

    /// An entry to show while the real one loads: sample data, returned at once.
    func placeholder(in context: Context) -> Entry

    /// One entry for the widget gallery (`context.isPreview`) or a transient view.
    func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void)

    /// The widget's entries and when to ask again.
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)

    /// `async` form of `getSnapshot(in:completion:)`.
    func snapshot(in context: Context) async -> Entry

    /// `async` form of `getTimeline(in:completion:)`.
    func timeline(in context: Context) async -> Timeline<Entry>
}

extension TimelineProvider {
    public func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void) {
        DefaultBridge.checkNotRecursing(Self.self, .snapshot)
        Task(executorPreference: ChannelExecutor.preferred) {
            let entry = await DefaultBridge.$active.withValue(DefaultBridge.Key(Self.self, .snapshot)) {
                await self.snapshot(in: context)
            }
            completion(entry)
        }
    }

    public func snapshot(in context: Context) async -> Entry {
        DefaultBridge.checkNotRecursing(Self.self, .snapshot)
        return await DefaultBridge.$active.withValue(DefaultBridge.Key(Self.self, .snapshot)) {
            await withCheckedContinuation { continuation in
                getSnapshot(in: context) { continuation.resume(returning: $0) }
            }
        }
    }

    public func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void) {
        DefaultBridge.checkNotRecursing(Self.self, .timeline)
        Task(executorPreference: ChannelExecutor.preferred) {
            let result = await DefaultBridge.$active.withValue(DefaultBridge.Key(Self.self, .timeline)) {
                await self.timeline(in: context)
            }
            completion(result)
        }
    }

    public func timeline(in context: Context) async -> Timeline<Entry> {
        DefaultBridge.checkNotRecursing(Self.self, .timeline)
        return await DefaultBridge.$active.withValue(DefaultBridge.Key(Self.self, .timeline)) {
            await withCheckedContinuation { continuation in
                getTimeline(in: context) { continuation.resume(returning: $0) }
            }
        }
    }
}
