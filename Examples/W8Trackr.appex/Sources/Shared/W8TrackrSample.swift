import Foundation

/// The sample data format `w8trackr import` reads. Weigh-ins give `daysAgo` (so the
/// sample always has a recent week) or an absolute `date`.
public struct W8TrackrSample: Sendable {
    public var preferences: WeightPreferences
    public var weighIns: [WeighIn]

    struct File: Decodable {
        struct Item: Decodable {
            var date: Date?
            var daysAgo: Double?
            var weight: Double
        }
        var unit: WeightUnit?
        var goal: Double?
        var weighIns: [Item]
    }

    public static func load(contentsOf url: URL, now: Date) throws -> W8TrackrSample {
        let file = try W8TrackrContainer.decoder.decode(File.self, from: Data(contentsOf: url))
        let unit = file.unit ?? .lb
        let weighIns = try file.weighIns.enumerated().map { index, item in
            guard let date = item.date ?? item.daysAgo.map({ now.addingTimeInterval(-$0 * 86_400) }) else {
                throw SampleError("\(url.path): weighIns[\(index)] needs \"date\" or \"daysAgo\"")
            }
            return WeighIn(date: date, weight: item.weight, unit: unit)
        }
        return W8TrackrSample(preferences: WeightPreferences(preferredWeightUnit: unit, goalWeight: file.goal), weighIns: weighIns)
    }
}

public struct SampleError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
