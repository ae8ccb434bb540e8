import WidgetKit

// The extension the benchmarks host: real WidgetKit SDK code, as small as a widget gets, so
// that what is measured is the host and not the provider. Every timeline carries a new
// `serial` (and the process id), so the harness can tell the new entry from the old one on
// the `subscribe` stream.

/// Counts timelines served by this process.
final class Serial: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    static let shared = Serial()

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

struct BenchEntry: TimelineEntry {
    let date: Date
    let serial: Int
}

/// One entry, now; asks again after `interval`, or at the next multiple of `interval`
/// (at least a second away) when `aligned` — as a clock widget would, and as i3blocks
/// runs its interval blocks together.
struct BenchProvider: TimelineProvider {
    let interval: TimeInterval
    var aligned = false

    func placeholder(in context: Context) -> BenchEntry { BenchEntry(date: Date(), serial: 0) }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (BenchEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<BenchEntry>) -> Void) {
        let now = Date()
        let next =
            aligned
            ? Date(timeIntervalSince1970: ((now.timeIntervalSince1970 + 1) / interval).rounded(.up) * interval)
            : now + interval
        completion(Timeline(entries: [BenchEntry(date: now, serial: Serial.shared.next())], policy: .after(next)))
    }
}

struct BenchContent: Encodable {
    let serial: Int
    let pid: Int32
}

/// Next reload six hours away: the latency, idle and footprint figures.
struct BenchWidget: Widget {
    let kind = "BenchWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: BenchProvider(interval: 6 * 3600)) { entry in
            BenchContent(serial: entry.serial, pid: ProcessInfo.processInfo.processIdentifier)
        }
        .configurationDisplayName("Bench")
        .description("A new serial number on every reload.")
        .supportedFamilies([.systemSmall])
    }
}

/// Reloads every 10 seconds on the 10-second marks: the cadence of the i3blocks peer's `interval=10`.
struct BenchTicker: Widget {
    let kind = "BenchTicker"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: BenchProvider(interval: 10, aligned: true)) { entry in
            BenchContent(serial: entry.serial, pid: ProcessInfo.processInfo.processIdentifier)
        }
        .configurationDisplayName("Bench ticker")
        .description("Reloads every 10 seconds.")
        .supportedFamilies([.systemSmall])
    }
}

/// The same cadence, a kind of its own: `widgethost reload --kind BenchSignal` refreshes one
/// widget, as `pkill -RTMIN+1 i3blocks` refreshes one block.
struct BenchSignal: Widget {
    let kind = "BenchSignal"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: BenchProvider(interval: 10, aligned: true)) { entry in
            BenchContent(serial: entry.serial, pid: ProcessInfo.processInfo.processIdentifier)
        }
        .configurationDisplayName("Bench signal")
        .description("Reloads every 10 seconds, and on demand.")
        .supportedFamilies([.systemSmall])
    }
}

struct BenchWidgetBundle: WidgetBundle {
    var body: some Widget {
        BenchWidget()
        BenchTicker()
        BenchSignal()
    }
}

BenchWidgetBundle.main()
