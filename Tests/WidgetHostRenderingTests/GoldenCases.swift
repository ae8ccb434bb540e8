import Foundation
import SwiftUI
import WidgetHostProtocol
import WidgetHostRendering
@testable import WidgetKit

/// One golden case: a view, the family and environment it is archived for, and the options
/// it is drawn with. Every view type and every modifier of the SDK has one.
struct GoldenCase {
    var archive: ViewArchive
    var options: RenderOptions

    static let instant = Date(timeIntervalSince1970: 1_771_142_400)  // 2026-02-15T08:00:00Z

    init<V: View>(
        _ view: V, family: WidgetFamily = .systemSmall, environment: ViewEnvironment = .init(), placeholder: Bool = false,
        options: (inout RenderOptions) -> Void = { _ in }
    ) {
        var context = TimelineProviderContext(family: family)
        context.viewEnvironment = environment
        archive = EntryArchive.make(view, context: context, isPlaceholder: placeholder)
        var renderOptions = RenderOptions(at: Self.instant, colorScheme: environment.colorScheme)
        options(&renderOptions)
        self.options = renderOptions
    }

    var html: String { WidgetRenderer.render(archive, options: options).html }

    static let minute: TimeInterval = 60

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    static func named(_ name: String) -> GoldenCase {
        let at = instant
        switch name {
        // Views
        case "text": return GoldenCase(Text("Hello, widget"))
        case "textConcatenated":
            return GoldenCase(Text("Due ").bold() + Text("today").italic().foregroundColor(.red) + Text(" at noon").underline())
        case "textInterpolatedSymbol": return GoldenCase(Text("\(Image(systemName: "gift.fill")) Ada's birthday!"))
        case "textSpecifier": return GoldenCase(Text("\(81.44, specifier: "%.1f") kg"))
        case "textDateStyles":
            return GoldenCase(
                VStack {
                    Text(at.addingTimeInterval(5400), style: .time)
                    Text(at, style: .date)
                    Text(at.addingTimeInterval(8580), style: .relative)
                    Text(at.addingTimeInterval(-7200), style: .offset)
                    Text(at.addingTimeInterval(150), style: .timer)
                })
        case "textTimerInterval":
            return GoldenCase(Text(timerInterval: at.addingTimeInterval(-60)...at.addingTimeInterval(3661), countsDown: true))
        case "vstack":
            return GoldenCase(VStack(alignment: .leading, spacing: 4) { Text("One"); Text("Two"); Text("Three") })
        case "hstack":
            return GoldenCase(HStack(alignment: .top, spacing: 12) { Text("Left"); Text("Right") })
        case "zstack":
            return GoldenCase(ZStack(alignment: .bottomTrailing) { Color.blue; Text("Corner") })
        case "spacer": return GoldenCase(VStack { Text("Top"); Spacer(minLength: 4); Text("Bottom") })
        case "divider": return GoldenCase(VStack { Text("Above"); Divider(); Text("Below") })
        case "imageSystem": return GoldenCase(Image(systemName: "scalemass").font(.largeTitle))
        case "imageSystemResizable": return GoldenCase(Image(systemName: "sun.max.fill").resizable().frame(width: 40, height: 40))
        case "imageSystemMissing": return GoldenCase(Image(systemName: "no.such.symbol"))
        case "imageAsset":
            return GoldenCase(Image("logo").resizable().scaledToFit()) { $0.images = FixedImages() }
        case "imageFileRefused": return GoldenCase(Image(fileURL: URL(fileURLWithPath: "/etc/passwd")))
        case "label": return GoldenCase(Label("Weight", systemImage: "scalemass"))
        case "labelStyles":
            return GoldenCase(
                VStack {
                    Label("Title only", systemImage: "star").labelStyle(.titleOnly)
                    Label("Icon only", systemImage: "star").labelStyle(.iconOnly)
                })
        case "gaugeLinear":
            return GoldenCase(Gauge(value: 62.0, in: 0...100) { Text("Humidity") } currentValueLabel: { Text("62%") })
        case "gaugeAccessoryCircularCapacity":
            return GoldenCase(
                Gauge(value: 27.0, in: 0...30) { Text("3") } currentValueLabel: { Text("3") }
                    .gaugeStyle(.accessoryCircularCapacity),
                family: .accessoryCircular)
        case "gaugeAccessoryCircular":
            return GoldenCase(
                Gauge(value: 0.4) { Text("UV") } currentValueLabel: { Text("4") } minimumValueLabel: { Text("0") } maximumValueLabel: {
                    Text("10")
                }
                .gaugeStyle(.accessoryCircular),
                family: .accessoryCircular)
        case "gaugeAccessoryLinear":
            return GoldenCase(
                Gauge(value: 0.7) { Text("Battery") }.gaugeStyle(.accessoryLinear), family: .accessoryRectangular)
        case "progressValue": return GoldenCase(ProgressView("Habits", value: 3, total: 5))
        case "progressTimer":
            return GoldenCase(ProgressView(timerInterval: at.addingTimeInterval(-600)...at.addingTimeInterval(1200), countsDown: true))
        case "progressCircular": return GoldenCase(ProgressView(value: 0.25).progressViewStyle(.circular))
        case "progressIndeterminate": return GoldenCase(ProgressView())
        case "link":
            return GoldenCase(Link("Open LucidPal", destination: URL(string: "lucidpal://habits")!), family: .systemMedium)
        case "forEach":
            return GoldenCase(VStack { ForEach(["Ada", "Grace", "Katherine"], id: \.self) { Text($0) } })
        case "forEachRange": return GoldenCase(HStack { ForEach(0..<3) { Text("\($0)") } })
        case "group":
            return GoldenCase(VStack { Group { Text("A"); Text("B") }.font(.caption) })
        case "viewThatFits":
            return GoldenCase(
                ViewThatFits {
                    Text("A sentence far too long to fit on one line of a small widget at this size")
                        .lineLimit(1).fixedWidth(600)
                    Text("Short")
                })
        case "color": return GoldenCase(Color(red: 0.2, green: 0.4, blue: 0.6, opacity: 0.8))
        case "linearGradient":
            return GoldenCase(LinearGradient(colors: [.blue, .purple], startPoint: .topLeading, endPoint: .bottomTrailing))
        case "shapes":
            return GoldenCase(
                HStack {
                    Circle().fill(.red)
                    RoundedRectangle(cornerRadius: 6).stroke(.blue, lineWidth: 2)
                    Capsule().fill(.green.opacity(0.5))
                    Rectangle()
                    ContainerRelativeShape().fill(.tint)
                    Ellipse().fill(.fill.secondary)
                }.frame(height: 30))
        case "accessoryWidgetBackground":
            return GoldenCase(ZStack { AccessoryWidgetBackground(); Image(systemName: "gift") }, family: .accessoryCircular)
        case "emptyView": return GoldenCase(EmptyView())
        case "anyView": return GoldenCase(AnyView(Text("Erased")))
        case "conditional":
            let flag = false
            return GoldenCase(VStack { if flag { Text("Yes") } else { Text("No") }; if flag { Text("Hidden") } })
        // Modifiers
        case "font": return GoldenCase(VStack { Text("Headline").font(.headline); Text("Caption").font(.caption2) })
        case "fontSystem":
            return GoldenCase(Text("81.4").font(.system(size: 34, weight: .bold, design: .rounded)).monospacedDigit())
        case "fontStyleDesign": return GoldenCase(Text("12").font(.system(.title2, design: .rounded)))
        case "fontWeight": return GoldenCase(VStack { Text("A"); Text("B") }.fontWeight(.semibold))
        case "foregroundStyle":
            return GoldenCase(VStack { Text("Primary"); Text("Secondary").foregroundStyle(.secondary) }.foregroundStyle(.primary))
        case "foregroundColor": return GoldenCase(Image(systemName: "flame.fill").foregroundColor(.orange))
        case "padding":
            return GoldenCase(VStack { Text("Padded").padding(); Text("Leading").padding(.leading, 24); Text("Insets").padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)) })
        case "frame": return GoldenCase(Text("Fixed").frame(width: 100, height: 40, alignment: .leading))
        case "frameInfinity":
            return GoldenCase(Text("Top leading").frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading))
        case "backgroundStyle": return GoldenCase(Text("Chip").padding(4).background(.yellow))
        case "backgroundShape": return GoldenCase(Text("Pill").padding(6).background(.blue.opacity(0.2), in: Capsule()))
        case "backgroundView":
            return GoldenCase(Text("Ringed").padding(8).background { Circle().stroke(.red, lineWidth: 1) })
        case "overlay":
            return GoldenCase(Color.gray.frame(width: 60, height: 60).overlay(alignment: .topTrailing) { Text("3") })
        case "clipShape": return GoldenCase(Color.green.frame(width: 50, height: 50).clipShape(Circle()))
        case "cornerRadius": return GoldenCase(Color.orange.frame(width: 50, height: 30).cornerRadius(8))
        case "lineLimit": return GoldenCase(Text("A name long enough to wrap onto more lines").lineLimit(2))
        case "minimumScaleFactor": return GoldenCase(Text("Shrinks").minimumScaleFactor(0.5))
        case "multilineTextAlignment":
            return GoldenCase(Text("Centered\nlines").multilineTextAlignment(.center))
        case "opacity": return GoldenCase(Text("Faded").opacity(0.4))
        case "containerBackground":
            return GoldenCase(Text("On a fill").containerBackground(.fill.tertiary, for: .widget))
        case "containerBackgroundView":
            return GoldenCase(
                Text("On a gradient").foregroundStyle(.white)
                    .containerBackground(for: .widget) { LinearGradient(colors: [.indigo, .black], startPoint: .top, endPoint: .bottom) })
        case "widgetURL": return GoldenCase(Text("Tap me").widgetURL(URL(string: "w8trackr://summary")))
        case "widgetAccentable":
            return GoldenCase(
                VStack { Text("Accent").widgetAccentable(); Text("Primary") }.foregroundStyle(.red),
                environment: ViewEnvironment(widgetRenderingMode: .accented)) { $0.mode = .accented }
        case "privacySensitive":
            return GoldenCase(VStack { Text("Ada Lovelace").privacySensitive(); Text("in 3 days") }) { $0.locked = true }
        case "redacted": return GoldenCase(VStack { Text("Hidden"); Image(systemName: "gift") }.redacted(reason: .placeholder))
        case "unredacted":
            return GoldenCase(VStack { Text("Hidden"); Text("Shown").unredacted() }.redacted(reason: .placeholder))
        case "invalidatableContent": return GoldenCase(Text("3/5").invalidatableContent())
        case "contentTransition": return GoldenCase(Text("42").contentTransition(.numericText(value: 42)))
        case "tint":
            return GoldenCase(Gauge(value: 0.5) { Text("Half") }.tint(.green))
        case "aspectRatio": return GoldenCase(Color.red.aspectRatio(2, contentMode: .fit))
        case "environmentModifier":
            return GoldenCase(Text("Dark").environment(\.colorScheme, .dark))
        case "customViewModifier": return GoldenCase(Text("Card").modifier(CardStyle()))
        // Environments and whole widgets
        case "dark":
            return GoldenCase(
                VStack { Text("Dark"); Text("mode").foregroundStyle(.secondary) }.containerBackground(.fill.tertiary, for: .widget),
                environment: ViewEnvironment(colorScheme: .dark))
        case "vibrant":
            return GoldenCase(
                VStack(alignment: .leading) { Text("Ada Lovelace").font(.headline); Text("Tomorrow").foregroundStyle(.blue) },
                family: .accessoryRectangular, environment: ViewEnvironment(colorScheme: .dark, widgetRenderingMode: .vibrant))
        case "inline":
            return GoldenCase(
                Text("\(Image(systemName: "gift")) Ada tomorrow"), family: .accessoryInline,
                environment: ViewEnvironment(widgetRenderingMode: .vibrant))
        case "placeholder":
            return GoldenCase(VStack { Text("Ada Lovelace"); Text("Tomorrow") }, placeholder: true)
        case "systemLarge": return GoldenCase(LargeFixture(), family: .systemLarge)
        default: fatalError("no golden case \(name)")
        }
    }

    static let names = [
        "text", "textConcatenated", "textInterpolatedSymbol", "textSpecifier", "textDateStyles", "textTimerInterval",
        "vstack", "hstack", "zstack", "spacer", "divider", "imageSystem", "imageSystemResizable", "imageSystemMissing",
        "imageAsset", "imageFileRefused", "label", "labelStyles", "gaugeLinear", "gaugeAccessoryCircularCapacity",
        "gaugeAccessoryCircular", "gaugeAccessoryLinear", "progressValue", "progressTimer", "progressCircular",
        "progressIndeterminate", "link", "forEach", "forEachRange", "group", "viewThatFits", "color", "linearGradient",
        "shapes", "accessoryWidgetBackground", "emptyView", "anyView", "conditional", "font", "fontSystem",
        "fontStyleDesign", "fontWeight", "foregroundStyle", "foregroundColor", "padding", "frame", "frameInfinity",
        "backgroundStyle", "backgroundShape", "backgroundView", "overlay", "clipShape", "cornerRadius", "lineLimit",
        "minimumScaleFactor", "multilineTextAlignment", "opacity", "containerBackground", "containerBackgroundView",
        "widgetURL", "widgetAccentable", "privacySensitive", "redacted", "unredacted", "invalidatableContent",
        "contentTransition", "tint", "aspectRatio", "environmentModifier", "customViewModifier", "dark", "vibrant",
        "inline", "placeholder", "systemLarge",
    ]
}

struct CardStyle: ViewModifier {
    func body(content: Content) -> some View {
        content.padding(8).background(.fill.secondary, in: RoundedRectangle(cornerRadius: 10))
    }
}

extension View {
    /// A width that cannot fit a small widget (for ViewThatFits).
    func fixedWidth(_ width: CGFloat) -> some View { frame(width: width) }
}

/// A 1×1 PNG for every asset name.
struct FixedImages: ImageSource {
    static let png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
    func image(asset name: String) -> ImageLookup { .found(dataURL: Self.png) }
    func image(file path: String) -> ImageLookup { .refused("\(path) is outside the bundle and its app groups") }
}

/// A systemLarge widget with most of the node types: the benchmark's archive too.
struct LargeFixture: View {
    let names = ["Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Margaret Hamilton", "Hedy Lamarr", "Radia Perlman", "Barbara Liskov", "Frances Allen"]

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            HStack {
                Label("Upcoming Birthdays", systemImage: "gift.fill").font(.headline).foregroundStyle(.pink)
                Spacer()
                Text(GoldenCase.instant.addingTimeInterval(3600), style: .relative).font(.caption).foregroundStyle(.secondary)
            }
            Divider()
            ForEach(Array(names.enumerated()), id: \.offset) { index, name in
                HStack {
                    Image(systemName: index == 0 ? "birthday.cake.fill" : "gift")
                        .foregroundStyle(index == 0 ? .pink : .secondary)
                    Text(name).font(.subheadline).lineLimit(1)
                    Spacer()
                    Text(index == 0 ? "Today" : "in \(index * 3) days").font(.caption).foregroundStyle(.secondary)
                }
            }
            Spacer(minLength: 0)
            Gauge(value: 3.0, in: 0...8) { Text("Cards sent") }.tint(.pink)
        }
        .containerBackground(.fill.tertiary, for: .widget)
        .widgetURL(URL(string: "birthdays://upcoming"))
    }
}
