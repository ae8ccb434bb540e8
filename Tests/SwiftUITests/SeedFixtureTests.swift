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
