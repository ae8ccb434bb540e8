import Foundation
import Testing
@testable import WidgetHostConfiguration

private func parse(_ text: String) throws(ConfigError) -> DaemonConfiguration {
    try DaemonConfiguration.parse(text: text, file: "config/widgethost.toml", currentDirectory: "/work", groupID: { _ in nil })
}

@Suite("Durations and sizes in the config")
struct ConfigQuantityTests {
    @Test(
        "Durations with units, and combinations",
        arguments: [
            ("500ms", 0.5), ("30s", 30), ("10m", 600), ("4h", 14_400), ("7d", 604_800), ("1h30m", 5400),
            ("1.5s", 1.5), ("0s", 0), ("2m30s", 150), ("-5s", -5), ("72h", 259_200),
        ] as [(String, Double)])
    func durations(text: String, seconds: Double) {
        #expect(DurationText.parse(text) == seconds)
    }

    @Test(
        "Strings that are not durations",
        arguments: ["", "5", "5 minutes", "5min", "m", "1.s", ".5s", "5sec", "1h 30m", "-", "3w", "5S"])
    func notDurations(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test(
        "Durations print in their shortest exact unit",
        arguments: [
            (0.05, "50ms"), (1, "1s"), (30, "30s"), (60, "1m"), (90, "90s"), (300, "5m"), (3600, "1h"),
            (5400, "90m"), (86_400, "1d"), (259_200, "3d"), (0, "0s"), (-60, "-1m"), (0.0005, "0.0005s"),
        ] as [(Double, String)])
    func durationFormat(seconds: Double, text: String) {
        #expect(DurationText.format(seconds) == text)
        if seconds >= 0.001 || seconds == 0 { #expect(DurationText.parse(text) == seconds) }
    }

    @Test(
        "Sizes in bytes or with a 1024-based unit",
        arguments: [
            ("1024", 1024), ("512KiB", 524_288), ("4MiB", 4_194_304), ("30MiB", 31_457_280), ("1GiB", 1_073_741_824),
            ("100B", 100), ("0.5MiB", 524_288), ("-1KiB", -1024),
        ] as [(String, Int)])
    func sizes(text: String, bytes: Int) {
        #expect(SizeText.parse(text) == bytes)
    }

    @Test("Strings that are not sizes", arguments: ["", "30MB", "4 MiB", "MiB", "1.MiB", "4mib", "lots", "99999999TiB"])
    func notSizes(text: String) {
        #expect(SizeText.parse(text) == nil)
    }

    @Test(
        "Sizes print in their largest exact unit",
        arguments: [(4_194_304, "4MiB"), (31_457_280, "30MiB"), (1000, "1000B"), (524_288, "512KiB"), (1536, "1536B")]
            as [(Int, String)])
    func sizeFormat(bytes: Int, text: String) {
        #expect(SizeText.format(bytes) == text)
        #expect(SizeText.parse(text) == bytes)
    }

    @Test("A duration may be a bare number of seconds, integer or float")
    func bareSeconds() throws {
        let configuration = try parse("limits.timeline_timeout = 7\nlimits.placeholder_timeout = 0.5")
        #expect(configuration.host.limits.timelineTimeout == 7)
        #expect(configuration.host.limits.placeholderTimeout == 0.5)
    }
}

@Suite("Times of day")
struct TimeOfDayTests {
    @Test(
        "\"HH:MM\" or \"HH:MM:SS\", two digits each, up to \"24:00\", the end of the day",
        arguments: [
            ("00:00", 0), ("08:00", 28_800), ("18:30", 66_600), ("23:59:59", 86_399), ("24:00", 86_400),
            ("24:00:00", 86_400), ("07:05:09", 25_509),
        ] as [(String, Double)])
    func timesOfDay(text: String, seconds: Double) {
        #expect(TimeOfDay.parse(text) == seconds)
    }

    @Test(
        "Strings that are not times of day",
        arguments: ["", "8:00", "08", "08:0", "08:60", "08:00:60", "24:00:01", "24:01", "25:00", "08:00:00:00", "-1:00", "08h00", "0８:00"])
    func notTimesOfDay(text: String) {
        #expect(TimeOfDay.parse(text) == nil)
    }

    @Test("Times of day print as HH:MM, with seconds only when there are some")
    func format() {
        #expect(TimeOfDay.format(28_800) == "08:00")
        #expect(TimeOfDay.format(86_400) == "24:00")
        #expect(TimeOfDay.format(25_509) == "07:05:09")
    }
}

@Suite("Suggestions for misspelt names")
struct SuggestionTests {
    @Test(
        "Edits count insertions, deletions, substitutions and swapped neighbours",
        arguments: [("min", "min", 0), ("mni", "min", 1), ("famly", "family", 1), ("kind", "knid", 1), ("", "abc", 3), ("abc", "xyz", 3)]
            as [(String, String, Int)])
    func distance(a: String, b: String, edits: Int) {
        #expect(Suggestion.distance(a, b) == edits)
    }

    @Test("Case and dashes do not count; far names get no suggestion")
    func closest() {
        #expect(Suggestion.closest(to: "Views-Per-Day", among: ["kind", "views_per_day"]) == "views_per_day")
        #expect(Suggestion.closest(to: "famly", among: ["kind", "family", "extension"]) == "family")
        #expect(Suggestion.closest(to: "colour", among: ["kind", "family"]) == nil)
    }
}
