import ActivityKit
import Foundation
import SwiftUI
import Testing
import WidgetHostProtocol
import WidgetKit

/// A Live Activity whose views say what their environment is.
private struct EnvironmentProbeAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable, Sendable {}
}

private struct EnvironmentProbe: View {
    @Environment(\.colorScheme) var colorScheme
    @Environment(\.activityFamily) var family
    @Environment(\.widgetContentMargins) var margins
    @Environment(\.showsWidgetContainerBackground) var background

    var body: some View {
        Text("\(colorScheme == .dark ? "dark" : "light") \(family == .medium ? "medium" : "small") \(Int(margins.leading)) \(background)")
    }
}

private struct EnvironmentProbeActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: EnvironmentProbeAttributes.self) { _ in
            EnvironmentProbe()
        } dynamicIsland: { _ in
            DynamicIsland {
                DynamicIslandExpandedRegion(.bottom) { EnvironmentProbe() }
            } compactLeading: {
                EnvironmentProbe()
            } compactTrailing: {
                EnvironmentProbe()
            } minimal: {
                EnvironmentProbe()
            }
        }
    }
}

@Suite("activity/render: each presentation in its own environment")
struct ActivityEnvironmentTests {
    @Test("The Lock Screen keeps the request's scheme with 14 pt margins; the Dynamic Island is dark, without margins or background")
    func environments() async throws {
        let server = try ExtensionServer(widget: EnvironmentProbeActivity())
        let params = ActivityRenderParams(
            activityId: "a1", attributesType: "EnvironmentProbeAttributes", attributes: [:], state: [:],
            environment: ViewEnvironment(colorScheme: .light))
        let line = try JSONRPCMessage.request(id: .number(1), method: "activity/render", params: try JSONValue(encoding: params))
            .encodedLine()
        let reply = try #require(await server.handle(line: Array(line)))
        guard case .message(.response(_, let value)) = JSONRPCMessage.parse(reply) else {
            Issue.record("activity/render answered with an error")
            return
        }
        let result = try value.decode(as: ActivityRenderResult.self)
        func text(_ archive: ViewArchive?) -> String {
            guard case .text(let runs)? = archive?.root.content, case .string(let text)? = runs.first?.content else { return "" }
            return text
        }
        #expect(text(result.lockScreen) == "light medium 14 true")
        #expect(result.lockScreen.environment.colorScheme == .light)
        for presentation in [ActivityPresentation.compactLeading, .compactTrailing, .minimal, .expandedBottom] {
            #expect(text(result.view(for: presentation)) == "dark medium 0 false", "\(presentation)")
            #expect(result.view(for: presentation)?.environment.colorScheme == .dark)
        }
        #expect(result.view(for: .expandedLeading) == nil)
    }
}
