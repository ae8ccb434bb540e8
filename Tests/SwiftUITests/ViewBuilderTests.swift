import Foundation
import SwiftUI
import Testing
import WidgetHostProtocol
@testable import WidgetKit

/// The result builder, the environment and the modifiers' order, as SwiftUI defines them.
@Suite struct ViewBuilderTests {
    struct Twelve: View {
        var body: some View {
            VStack {
                Text("1"); Text("2"); Text("3"); Text("4"); Text("5"); Text("6")
                Text("7"); Text("8"); Text("9"); Text("10"); Text("11"); Text("12")
            }
        }
    }

    @Test func moreThanTenChildren() {
        #expect(archive(Twelve()).texts == (1...12).map(String.init))
    }

    struct Branches: View {
        let flag: Bool
        let name: String?
        var body: some View {
            VStack {
                if flag { Text("flag") }
                if let name { Text(name) } else { Text("nobody") }
                if flag { Text("a") } else if name == nil { Text("b") } else { Text("c") }
            }
        }
    }

    @Test func ifElseSwitchAndOptionals() {
        #expect(archive(Branches(flag: true, name: "Ada")).texts == ["flag", "Ada", "a"])
        #expect(archive(Branches(flag: false, name: nil)).texts == ["nobody", "b"])
        #expect(archive(Branches(flag: false, name: "Grace")).texts == ["Grace", "c"])
    }

    struct ReadsEnvironment: View {
        @Environment(\.widgetFamily) var family
        @Environment(\.colorScheme) var colorScheme
        @Environment(\.widgetRenderingMode) var mode
        @Environment(\.showsWidgetContainerBackground) var background
        @Environment(\.displayScale) var scale
        @Environment(\.redactionReasons) var redaction
        var body: some View {
            Text("\(family.rawValue) \(colorScheme == .dark ? "dark" : "light") \(mode) \(background) \(Int(scale)) \(redaction.contains(.placeholder))")
        }
    }

    @Test func environmentValuesComeFromTheRequest() {
        let environment = ViewEnvironment(
            colorScheme: .dark, widgetRenderingMode: .vibrant, showsWidgetContainerBackground: false, displayScale: 2)
        #expect(archive(ReadsEnvironment(), family: .accessoryRectangular, environment).texts == ["accessoryRectangular dark vibrant false 2 false"])
        #expect(archive(ReadsEnvironment()).texts == ["systemSmall light fullColor true 3 false"])
        // A placeholder is archived redacted, and its views can tell.
        var context = TimelineProviderContext(family: .systemSmall)
        context.viewEnvironment = ViewEnvironment()
        let placeholder = EntryArchive.make(ReadsEnvironment(), context: context, isPlaceholder: true)
        #expect(placeholder.root.texts == ["systemSmall light fullColor true 3 true"])
        #expect(placeholder.root.modifiers.last == .redacted("placeholder"))
        // .environment(_:_:) changes what the views inside read.
        #expect(archive(ReadsEnvironment().environment(\.colorScheme, .dark)).texts.first?.contains("dark") == true)
    }

    @Test func modifiersKeepTheirOrder() {
        let node = archive(Text("x").padding(4).background(.red).padding(8))
        #expect(node.modifiers.map(\.type) == ["padding", "background", "padding"])
    }

    @Test func groupModifiersApplyToEachChild() {
        let node = archive(VStack { Group { Text("a"); Text("b") }.font(.caption) })
        guard case .vstack(_, _, let children) = node.content else { Issue.record("\(node.type)"); return }
        #expect(children.count == 2)
        #expect(children.allSatisfy { $0.modifiers == [.font(ArchiveFont(style: "caption"))] })
    }

    @Test func textRunsAndInterpolation() {
        let date = Date(timeIntervalSince1970: 1_771_142_400)
        let text = Text("Hi \(Image(systemName: "gift")) \(3) \(date, style: .relative) \(Text("bold").bold())")
        guard case .text(let runs) = archive(text).content else { Issue.record("not text"); return }
        #expect(runs.map(\.content) == [.string("Hi "), .symbol("gift"), .string(" 3 "), .date(date, style: .relative), .string(" "), .string("bold")])
        #expect(runs.last?.bold == true)
        // An inner font wins over an outer one.
        guard case .text(let styled) = archive((Text("a").font(.title) + Text("b")).font(.caption)).content else { return }
        #expect(styled.map(\.font?.style) == ["title", "caption"])
    }

    @Test func nonFiniteLengthsAreDroppedNotFatal() throws {
        let zero = 0.0
        let view = VStack(spacing: zero / zero) {
            Text("x").padding(zero / zero).frame(width: 1 / zero, height: zero / zero).cornerRadius(zero / zero)
            Spacer(minLength: -1 / zero)
            Gauge(value: zero / zero) { Text("g") }
            ProgressView(value: 1.0, total: zero)
            RoundedRectangle(cornerRadius: zero / zero).stroke(.red, lineWidth: zero / zero)
            Text("y").font(.system(size: zero / zero)).minimumScaleFactor(zero / zero).aspectRatio(zero / zero, contentMode: .fit)
        }
        let archived = ViewArchive(family: .systemSmall, root: archive(view))
        #expect(try WireCoding.decode(ViewArchive.self, from: WireCoding.encode(archived)) == archived)
    }

    @Test func everyArchiveSurvivesJSON() throws {
        let view = VStack { Twelve(); Branches(flag: true, name: "x"); ReadsEnvironment() }
        let archived = ViewArchive(family: .systemLarge, root: archive(view))
        #expect(try WireCoding.decode(ViewArchive.self, from: WireCoding.encode(archived)) == archived)
    }
}
