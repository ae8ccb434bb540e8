import Foundation
import SwiftUI
import WidgetKit

/// LucidPal's entry view: the family's layout of today's habits, the top streak, the
/// pinned note and the current or next calendar event.
public struct LucidPalEntryView: View {
    @Environment(\.widgetFamily) var family
    let entry: LucidPalEntry

    public init(entry: LucidPalEntry) { self.entry = entry }

    public var body: some View {
        let summary = LucidPalSummary(entry: entry)
        switch family {
        case .accessoryRectangular:
            RectangularView(summary: summary)
        case .systemMedium:
            MediumView(summary: summary)
        default:
            SmallView(summary: summary)
        }
    }
}

/// Habits done today as a ring, a "Done" button while some are left, and the longest streak.
struct SmallView: View {
    let summary: LucidPalSummary

    var body: some View {
        if let done = summary.habitsToday, let total = summary.habitsTotal {
            VStack(alignment: .leading, spacing: 6) {
                HabitsGauge(done: done, total: total)
                if done < total {
                    Button(intent: LogHabitIntent()) {
                        Label("Done", systemImage: "checkmark.circle")
                    }
                    .font(.caption)
                    .tint(.green)
                }
                Spacer(minLength: 0)
                if let streak = summary.topStreak {
                    Label(streak, systemImage: "flame.fill")
                        .font(.caption)
                        .foregroundStyle(.orange)
                        .lineLimit(1)
                }
                StaleNote(summary: summary)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
            .widgetURL(URL(string: "lucidpal://habits"))
        } else {
            EmptyLucidPalView()
        }
    }
}

/// The small layout beside the pinned note and the event.
struct MediumView: View {
    let summary: LucidPalSummary

    var body: some View {
        HStack(alignment: .top, spacing: 16) {
            SmallView(summary: summary)
            VStack(alignment: .leading, spacing: 8) {
                if let note = summary.pinnedNote {
                    Label(note, systemImage: "pin.fill")
                        .font(.subheadline)
                        .lineLimit(2)
                }
                if let event = summary.event {
                    EventView(event: event)
                }
                Spacer(minLength: 0)
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        }
    }
}

/// The lock screen: one line of habits and the event.
struct RectangularView: View {
    let summary: LucidPalSummary

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            if let habits = summary.habits {
                Label("\(habits) habits", systemImage: "checkmark.circle.fill")
                    .font(.headline)
                    .widgetAccentable()
            } else {
                Text("LucidPal").font(.headline)
            }
            if let event = summary.event {
                EventView(event: event)
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
    }
}

struct HabitsGauge: View {
    let done: Int
    let total: Int

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text("\(done)/\(total)")
                .font(.system(size: 28, weight: .bold, design: .rounded))
                .contentTransition(.numericText(value: Double(done)))
                .invalidatableContent()
            ProgressView("Habits today", value: Double(done), total: Double(max(total, 1)))
                .tint(.green)
                .font(.caption)
        }
    }
}

/// The event in progress counts down to its end; the next one counts down to its start.
struct EventView: View {
    let event: LucidPalSummary.Event

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            Label(event.title, systemImage: "calendar")
                .font(.caption)
                .fontWeight(.semibold)
                .lineLimit(1)
            if event.inProgress {
                Text("ends in \(Text(timerInterval: event.start...event.end, countsDown: true))")
                    .font(.caption2)
                    .foregroundStyle(.secondary)
            } else {
                Text("starts in \(Text(event.start, style: .relative))")
                    .font(.caption2)
                    .foregroundStyle(.secondary)
            }
        }
    }
}

/// Data older than `LucidPalProvider.staleAfter`: when it was written, counting.
struct StaleNote: View {
    let summary: LucidPalSummary

    var body: some View {
        if summary.stale == true, let writtenAt = summary.writtenAt {
            Text("Updated \(Text(writtenAt, style: .relative)) ago")
                .font(.caption2)
                .foregroundStyle(.secondary)
                .lineLimit(1)
        }
    }
}

struct EmptyLucidPalView: View {
    var body: some View {
        VStack(spacing: 6) {
            Image(systemName: "sparkles")
                .font(.title2)
                .foregroundStyle(.secondary)
            Text(LucidPalSummary.emptyMessage)
                .font(.caption)
                .multilineTextAlignment(.center)
                .foregroundStyle(.secondary)
        }
        .widgetURL(URL(string: "lucidpal://open"))
    }
}
