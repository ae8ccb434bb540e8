import Foundation
import Testing
import WidgetKit

@Suite("WidgetBundle bodies are written as in WidgetKit")
struct BundleBuilderTests {
    struct Conditional: WidgetBundle {
        var withLockScreen = true
        var body: some Widget {
            BirthdayHomeWidget()
            if withLockScreen {
                BirthdayLockScreenWidget()
            }
            if #available(iOS 17, macOS 14, *) {
                PlainWidget()
            } else {
                EchoWidget<AsyncOnlyProvider>()
            }
            for _ in 0..<1 {
                EchoWidget<MainThreadProvider>()
            }
        }
    }

    @Test("if, if #available and for in a bundle's body")
    func controlFlow() throws {
        let kinds = try ExtensionServer(bundle: Conditional()).initializeResult.widgets.map(\.kind)
        #expect(kinds == ["BirthdayHomeWidget", "BirthdayLockScreenWidget", "Plain", "MainThreadProvider"])
        var without = Conditional()
        without.withLockScreen = false
        #expect(try ExtensionServer(bundle: without).initializeResult.widgets.map(\.kind) == ["BirthdayHomeWidget", "Plain", "MainThreadProvider"])
    }

    @Test("A single widget can be served without a bundle")
    func singleWidget() throws {
        #expect(try ExtensionServer(widget: BirthdayHomeWidget()).initializeResult.widgets.map(\.kind) == ["BirthdayHomeWidget"])
    }

    @Test("The context's display size is the family's size on the reference device", arguments: WidgetFamily.allCases)
    func displaySize(family: WidgetFamily) {
        let context = TimelineProviderContext(family: family)
        #expect(Double(context.displaySize.width) == family.displaySize.width)
        #expect(Double(context.displaySize.height) == family.displaySize.height)
        #expect(!context.isPreview)
    }

    @Test("A provider implementing neither getTimeline nor timeline(in:) stops with a message naming it")
    func forgetfulProvider() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let server = try ExtensionServer(widget: EchoWidget<ForgetfulProvider>())
            _ = await server.handle(
                line: Array(#"{"jsonrpc":"2.0","id":1,"method":"timeline/get","params":{"kind":"ForgetfulProvider","family":"systemSmall"}}"#.utf8))
        }
        let log = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            log.contains(
                "ForgetfulProvider implements neither getTimeline(in:completion:) nor timeline(in:); a TimelineProvider must implement one of them"
            ))
    }
}
