// seeds/004 (the axiom WidgetKit reference), "Example: Supporting Multiple Families",
// "invalidatableContent Modifier" and "contentTransition for Numeric Text", verbatim apart
// from the @main.
import SwiftUI
import WidgetKit

struct MyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "MyWidget", provider: Provider()) { entry in
            if #available(iOSApplicationExtension 16.0, *) {
                switch entry.family {
                case .systemSmall:
                    AxiomSmallWidgetView(entry: entry)
                case .systemMedium:
                    AxiomMediumWidgetView(entry: entry)
                case .accessoryCircular:
                    AxiomCircularWidgetView(entry: entry)
                case .accessoryRectangular:
                    AxiomRectangularWidgetView(entry: entry)
                default:
                    Text("Unsupported")
                }
            } else {
                LegacyWidgetView(entry: entry)
            }
        }
        .supportedFamilies([
            .systemSmall,
            .systemMedium,
            .accessoryCircular,
            .accessoryRectangular
        ])
    }
}

struct MyWidgetView: View {
    var entry: Provider.Entry

    var body: some View {
        VStack {
            Text(entry.status)
                .invalidatableContent() // Dims during intent execution

            Button(intent: RefreshIntent()) {
                Image(systemName: "arrow.clockwise")
            }
        }
    }
}

struct CounterView: View {
    var entry: Provider.Entry

    var body: some View {
        Text("\(entry.value)")
            .contentTransition(.numericText(value: Double(entry.value)))
    }
}
