import Foundation

/// The unit a weight is shown in: the user's preference, stored in the shared preferences.
public enum WeightUnit: String, Codable, Sendable, CaseIterable {
    case lb
    case kg

    static let poundsPerKilogram = 2.204_622_62

    /// `value`, given in `unit`, expressed in this unit.
    public func convert(_ value: Double, from unit: WeightUnit) -> Double {
        switch (unit, self) {
        case (.kg, .lb): value * Self.poundsPerKilogram
        case (.lb, .kg): value / Self.poundsPerKilogram
        default: value
        }
    }
}

/// One weigh-in as the app records it: the weight in the unit it was entered in.
public struct WeighIn: Codable, Sendable, Hashable {
    public var date: Date
    public var weight: Double
    public var unit: WeightUnit

    public init(date: Date, weight: Double, unit: WeightUnit) {
        self.date = date
        self.weight = weight
        self.unit = unit
    }

    /// The weight in `unit` (W8Trackr's `WeightEntry.weightValue(in:)`).
    public func weightValue(in unit: WeightUnit) -> Double {
        unit.convert(weight, from: self.unit)
    }
}

/// What the app shares with the widget besides the weigh-ins (on iOS, the App Group's
/// `UserDefaults` keys `preferredWeightUnit` and `goalWeight`).
public struct WeightPreferences: Codable, Sendable, Hashable {
    public var preferredWeightUnit: WeightUnit
    /// In `preferredWeightUnit`; nil until the user sets a goal.
    public var goalWeight: Double?

    public init(preferredWeightUnit: WeightUnit = .lb, goalWeight: Double? = nil) {
        self.preferredWeightUnit = preferredWeightUnit
        self.goalWeight = goalWeight
    }
}
