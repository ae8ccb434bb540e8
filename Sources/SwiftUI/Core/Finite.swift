/// Lengths as the archive holds them: JSON has no NaN or infinity, so a non-finite length
/// (a division by zero in a view) is dropped rather than failing the whole reply.
func finite(_ value: CGFloat?) -> Double? {
    guard let value, value.isFinite else { return nil }
    return Double(value)
}

import Foundation
