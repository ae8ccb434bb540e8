import Foundation
import SwiftUI
import Testing
import WidgetHostProtocol
@testable import WidgetKit

/// The seeds' views compile (this file building is most of the test) and archive to the
/// nodes their code describes.
@Suite struct SeedFixtureTests {
    @Test func smallBirthdayView() throws {
        let root = archive(HomeWidgetEntryView(entry: .placeholder), family: .systemSmall)
        #expect(root.type == "vstack")
        #expect(root.modifiers.contains(.containerBackground(style: ArchiveStyle(.fill(3)), view: nil, alignment: "center")))
        #expect(root.texts == ["Today", "John Doe", "Feb 15, 1990"])
    }
}

func archive<V: View>(_ view: V, family: WidgetFamily = .systemSmall, _ environment: ViewEnvironment = .init()) -> ViewNode {
    _ViewArchiver.archive(view, environment: EnvironmentValues(family: family, environment))
}

extension ViewNode {
    /// Every text's plain string, depth first.
    var texts: [String] {
        var result: [String] = []
        if case .text(let runs) = content {
            result.append(
                runs.map { run in
                    switch run.content {
                    case .string(let text): text
                    case .symbol(let name): "[\(name)]"
                    case .date(_, let style): "<\(style.rawValue)>"
                    case .timer: "<timer>"
                    }
                }.joined())
        }
        for child in childNodes { result += child.texts }
        return result
    }
}

@Suite struct MoreSeedFixtureTests {
    @Test func lockScreenViews() throws {
        let circular = archive(CircularWidgetView(entry: .placeholder), family: .accessoryCircular)
        guard case .gauge(let gauge) = circular.content else { Issue.record("\(circular.type)"); return }
        #expect(gauge.style == "accessoryCircularCapacity" && gauge.value == 30 && gauge.max == 30)
        #expect(gauge.currentValueLabel?.texts == ["0"])
        let inline = archive(InlineWidgetView(entry: .placeholder), family: .accessoryInline)
        #expect(inline.texts == ["[gift.fill] John Doe's birthday!"])
        let empty = archive(CircularWidgetView(entry: BirthdayTimelineEntry(date: .now, upcomingBirthdays: [])))
        #expect(empty.type == "zstack" && empty.childNodes.map(\.type) == ["accessoryWidgetBackground", "image"])
    }

    @Test func w8trackrViews() {
        let entry = WeightWidgetProvider.sample
        #expect(archive(WeightWidgetEntryView(entry: entry), family: .systemSmall).modifiers.contains(.widgetURL("w8trackr://summary")))
        #expect(archive(WeightWidgetEntryView(entry: entry), family: .systemMedium).texts == ["170 lb"])
        #expect(archive(WeightWidgetEntryView(entry: entry), family: .accessoryInline).type == "empty")
        let empty = archive(EmptyStateView())
        #expect(empty.texts == ["Add your first weigh-in"] && empty.modifiers.contains(.widgetURL("w8trackr://addWeight")))
    }

    @Test func widgyRenderer() {
        let layout = LayoutNode(
            type: .vStack,
            children: [
                LayoutNode(type: .sfSymbol, name: "sun.max.fill", swiftUIColor: .yellow),
                LayoutNode(type: .text, content: "{{temperature}}°", swiftUIFont: .title),
            ])
        let root = archive(WidgetRendererView(config: WidgetConfig(layout: layout, background: .blue), dataContext: ["temperature": 14]))
        #expect(root.texts == ["14°"])
        #expect(root.childNodes.first?.type == "image")
        #expect(root.modifiers.contains { if case .containerBackground(nil, let view?, _) = $0 { view.type == "fill" } else { false } })
    }

    @Test func axiomAvailabilityAndFamilies() {
        for (family, type) in [(WidgetFamily.systemSmall, "vstack"), (.systemMedium, "hstack"), (.accessoryCircular, "text")] {
            let entry = SimpleEntry(date: .now, family: family, status: "Ready", value: 3)
            let view = Group {
                if #available(iOSApplicationExtension 16.0, *) {
                    switch entry.family {
                    case .systemSmall: AxiomSmallWidgetView(entry: entry)
                    case .systemMedium: AxiomMediumWidgetView(entry: entry)
                    default: AxiomCircularWidgetView(entry: entry)
                    }
                } else {
                    LegacyWidgetView(entry: entry)
                }
            }
            #expect(archive(view, family: family).type == type)
        }
        let counter = archive(CounterView(entry: SimpleEntry(date: .now, family: .systemSmall, status: "", value: 7)))
        #expect(counter.modifiers == [.contentTransition("numericText")] && counter.texts == ["7"])
        let busy = archive(MyWidgetView(entry: SimpleEntry(date: .now, family: .systemSmall, status: "Busy", value: 0)))
        #expect(busy.childNodes.first?.modifiers == [.invalidatableContent(true)])
        #expect(busy.intentControls.map(\.control.id) == ["b1"])
        #expect(busy.intentControls.first?.control.intent.type == "SwiftUITests.RefreshIntent")
    }
}
