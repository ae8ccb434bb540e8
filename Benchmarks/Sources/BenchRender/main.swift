// Rendering a systemLarge archive to HTML (issue 13's figure, for `make bench`): the target is
// under 1 ms per widget. Also the extension's side: archiving the same view.
//
//     swift build -c release --product widgethost-bench-render && .build/release/widgethost-bench-render
import Foundation
import SwiftUI
import WidgetHostProtocol
import WidgetHostRendering
import WidgetKit

struct LargeBirthdays: View {
    let names = [
        "Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Margaret Hamilton", "Hedy Lamarr", "Radia Perlman",
        "Barbara Liskov", "Frances Allen",
    ]
    let now: Date

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            HStack {
                Label("Upcoming Birthdays", systemImage: "gift.fill").font(.headline).foregroundStyle(.pink)
                Spacer()
                Text(now.addingTimeInterval(3600), style: .relative).font(.caption).foregroundStyle(.secondary)
            }
            Divider()
            ForEach(Array(names.enumerated()), id: \.offset) { index, name in
                HStack {
                    Image(systemName: index == 0 ? "birthday.cake.fill" : "gift").foregroundStyle(index == 0 ? .pink : .secondary)
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

func measure(_ iterations: Int, _ body: () -> Void) -> (median: Double, mean: Double) {
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    let clock = ContinuousClock()
    for _ in 0..<iterations {
        let elapsed = clock.measure(body)
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    return (samples[samples.count / 2], samples.reduce(0, +) / Double(samples.count))
}

let now = Date(timeIntervalSince1970: 1_771_142_400)
var environment = EnvironmentValues()
environment.widgetFamily = .systemLarge
let root = _ViewArchiver.archive(LargeBirthdays(now: now), environment: environment)
let archive = ViewArchive(family: .systemLarge, root: root)
let options = RenderOptions(at: now)
let bytes = (try? WireCoding.encode(archive).count) ?? 0
var nodes = 0
var stack = [root]
while let node = stack.popLast() {
    nodes += 1
    stack += node.childNodes
}

for _ in 0..<200 { _ = WidgetRenderer.render(archive, options: options) }  // warm up
let iterations = CommandLine.arguments.contains("--quick") ? 500 : 5000
var html = 0
let render = measure(iterations) { html = WidgetRenderer.render(archive, options: options).html.utf8.count }
let archiving = measure(iterations / 5) { _ = _ViewArchiver.archive(LargeBirthdays(now: now), environment: environment) }
let decode = measure(iterations / 5) { _ = try? WireCoding.decode(ViewArchive.self, from: WireCoding.encode(archive)) }

func line(_ name: String, _ figure: (median: Double, mean: Double), floor: Double? = nil) -> String {
    let ratio = floor.map { String(format: "  %.2f× the %.0f µs target", figure.median / $0, $0) } ?? ""
    let padded = name.padding(toLength: 36, withPad: " ", startingAt: 0)
    return padded + String(format: "median %8.1f µs  mean %8.1f µs", figure.median, figure.mean) + ratio
}
print("systemLarge archive: \(nodes) nodes, \(bytes) bytes of JSON; HTML \(html) bytes")
print(line("render to HTML", render, floor: 1000))
print(line("archive the view (extension)", archiving))
print(line("encode + decode the archive (JSON)", decode))
