import WidgetHostConfiguration

/// Values only scenario files have; durations, sizes, times of day and the rest are read by
/// the configuration module's `ValueReader`, as in widgethost.toml.
extension ValueReader {
    /// `per_day = [5, 10]` (or one number).
    func countRange(_ value: ConfigValue, _ key: String) throws(ConfigError) -> ClosedRange<Int> {
        if let number = value.integer, number >= 1 { return number...number }
        if let pair = value.array, pair.count == 2, let low = pair[0].integer, let high = pair[1].integer,
            low >= 1, low <= high
        {
            return low...high
        }
        throw error(
            .invalidValue, value,
            "\(key) = \(value.tomlText) must be a count or a range [low, high] with 1 ≤ low ≤ high, as in per_day = [5, 10]")
    }
}
