// What seeds/003's views refer to but the seed does not show (written for the tests): the
// medium and large views (the seed names them; its sizes are in the project structure; the
// small and medium views are prefixed W8 so that they do not meet seeds/000's in one target)
// and a provider without SwiftData.
import SwiftUI
import WidgetKit

struct W8MediumWidgetView: View {
    let entry: WeightWidgetEntry
    var body: some View {
        HStack {
            Text(entry.currentWeight.map { "\($0) \(entry.weightUnit)" } ?? "—").font(.title)
            Image(systemName: entry.trend.systemImage)
        }
    }
}

struct W8LargeWidgetView: View {
    let entry: WeightWidgetEntry
    var body: some View {
        VStack {
            W8MediumWidgetView(entry: entry)
            HStack(alignment: .bottom) {
                ForEach(entry.recentEntries) { point in
                    Capsule().frame(width: 8, height: point.weight - 150)
                }
            }
        }
    }
}

struct WeightWidgetProvider: TimelineProvider {
    static let sample = WeightWidgetEntry(
        date: .now, currentWeight: 170, weightUnit: "lb", goalWeight: 160, trend: .down,
        recentEntries: [.init(date: .now, weight: 171), .init(date: .now, weight: 170)])

    func placeholder(in context: Context) -> WeightWidgetEntry { Self.sample }

    func getSnapshot(in context: Context, completion: @escaping (WeightWidgetEntry) -> Void) { completion(Self.sample) }

    func getTimeline(in context: Context, completion: @escaping (Timeline<WeightWidgetEntry>) -> Void) {
        let nextRefresh = Calendar.current.date(byAdding: .hour, value: 4, to: .now) ?? .now
        completion(Timeline(entries: [Self.sample], policy: .after(nextRefresh)))
    }
}
