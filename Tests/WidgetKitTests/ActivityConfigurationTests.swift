import ActivityKit
import Foundation
import SwiftUI
import Testing
import WidgetHostProtocol
import WidgetKit

// seeds/004's Dynamic Island, completed with the four presentations ActivityConfiguration needs.
private struct TimerAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var timeRemaining: String
        var driverName: String?
    }
    var orderNumber: String
}

private struct TimerLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: TimerAttributes.self) { context in
            VStack {
                Text("Order \(context.attributes.orderNumber)")
                Text(context.state.driverName ?? "Preparing")
            }
            .activityBackgroundTint(Color.black)
            .activitySystemActionForegroundColor(Color.white)
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    Image(systemName: "timer")
                }
                DynamicIslandExpandedRegion(.trailing) {
                    VStack(alignment: .trailing) {
                        Text("\(context.state.timeRemaining)")
                            .font(.title2.monospacedDigit())
                        Text("remaining")
                            .font(.caption)
                    }
                }
                DynamicIslandExpandedRegion(.center) {
                    // Optional center content
                }
                DynamicIslandExpandedRegion(.bottom) {
                    Text(context.isStale ? "Out of date" : "On time")
                }
            } compactLeading: {
                Image(systemName: "timer")
            } compactTrailing: {
                Text("\(context.state.timeRemaining)")
                    .frame(width: 40)
            } minimal: {
                Image(systemName: "timer")
                    .foregroundStyle(.tint)
            }
            .keylineTint(Color.orange)
            .widgetURL(URL(string: "timer://order/\(context.attributes.orderNumber)"))
        }
    }
}

@Suite("ActivityConfiguration: the Lock Screen view and the Dynamic Island")
struct ActivityConfigurationTests {
    private func text(_ node: ViewNode) throws -> String {
        String(decoding: try WireCoding.encode(node), as: UTF8.self)
    }

    @Test("Each presentation archives from the activity's attributes and state as JSON")
    func archives() throws {
        let configuration = try #require(TimerLiveActivity().body as? ActivityConfiguration<TimerAttributes>)
        let archives = try configuration.archives(
            attributes: ["orderNumber": "12345"], state: ["timeRemaining": "12:00", "driverName": "John"], activityID: "a1",
            isStale: true)
        #expect(try text(archives.lockScreen).contains("Order 12345"))
        #expect(try text(archives.lockScreen).contains("John"))
        #expect(try text(archives.compactTrailing).contains("12:00"))
        #expect(try text(archives.minimal).contains("timer"))
        #expect(archives.expanded.map(\.position) == ["leading", "trailing", "center", "bottom"])
        #expect(try text(archives.expanded[3].view).contains("Out of date"))
    }

    @Test("The island's keylineTint and widgetURL, and the Lock Screen view's tints, are archived; nil clears them")
    func tints() throws {
        let configuration = try #require(TimerLiveActivity().body as? ActivityConfiguration<TimerAttributes>)
        let archives = try configuration.archives(
            attributes: ["orderNumber": "12345"], state: ["timeRemaining": "12:00"], activityID: "a1")
        #expect(archives.keylineTint == ArchiveColor(.system("orange")))
        #expect(archives.widgetURL == "timer://order/12345")
        #expect(archives.lockScreen.modifiers.contains(.activityBackgroundTint(ArchiveColor(.system("black")))))
        #expect(archives.lockScreen.modifiers.contains(.activitySystemActionForegroundColor(ArchiveColor(.system("white")))))

        let plain = ActivityConfiguration(for: TimerAttributes.self) { _ in
            Text("x").activityBackgroundTint(nil).activitySystemActionForegroundColor(Color(red: 1, green: 0.5, blue: 0))
        } dynamicIsland: { _ in
            DynamicIsland {
                DynamicIslandExpandedRegion(.bottom) { Text("b") }
            } compactLeading: { Text("l") } compactTrailing: { Text("t") } minimal: { Text("m") }
            .keylineTint(nil).widgetURL(nil)
        }
        let drawn = try plain.archives(attributes: ["orderNumber": "1"], state: ["timeRemaining": "1"], activityID: "a2")
        #expect(drawn.keylineTint == nil && drawn.widgetURL == nil)
        #expect(drawn.lockScreen.modifiers.contains(.activityBackgroundTint(nil)))
        #expect(drawn.lockScreen.modifiers.contains(.activitySystemActionForegroundColor(ArchiveColor(.rgb(red: 1, green: 0.5, blue: 0)))))
    }

    @Test("A state that does not decode as the ContentState is an error, not a crash")
    func badState() throws {
        let configuration = try #require(TimerLiveActivity().body as? ActivityConfiguration<TimerAttributes>)
        #expect(throws: (any Error).self) {
            _ = try configuration.archives(attributes: ["orderNumber": "1"], state: ["timeRemaining": 12], activityID: "a1")
        }
    }
}
