import Foundation
import WidgetHostProtocol

/// How long an activity lives (Apple): active at most `maxActive` after it starts, then
/// ended by the host; after ending it stays on the Lock Screen as its dismissal policy says,
/// never longer than `maxLockScreen`.
public enum ActivityLifetime {
    /// When the host ends an activity that nobody ended.
    public static func forcedEnd(startedAt: Date, rules: ActivityRules) -> Date {
        startedAt + rules.maxActive
    }

    /// When an activity ended at `endedAt` leaves the Lock Screen: `.default` after the
    /// maximum, `.immediate` at once, `.after(d)` at `d` but no sooner than the end and no
    /// later than the maximum.
    public static func dismissal(
        _ policy: ActivityDismissalPolicyPayload, endedAt: Date, rules: ActivityRules
    ) -> Date {
        let latest = endedAt + rules.maxLockScreen
        switch policy {
        case .default: return latest
        case .immediate: return endedAt
        case .after(let date): return min(max(date, endedAt), latest)
        }
    }
}

/// The 4 KB limit (Apple: "The provided Live Activity attributes exceeded the maximum size
/// of 4KB"), counted over the JSON of the attributes plus the content state, as the host
/// encodes them (sorted keys, no spaces).
public enum ActivityPayloadSize {
    public static func bytes(attributes: JSONValue, state: JSONValue) -> Int {
        encodedCount(attributes) + encodedCount(state)
    }

    public static func encodedCount(_ value: JSONValue) -> Int {
        (try? WireCoding.encode(value).count) ?? Int.max
    }
}

/// Push tokens, derived from what they name so that the same activity always has the same
/// token and no clock or random source is needed: 32 bytes as 64 hex digits, like APNs'.
public enum PushTokens {
    public static func activity(id: String, app: String, startedAt: Date) -> String {
        token("activity\u{0}\(app)\u{0}\(id)\u{0}\(Int(startedAt.timeIntervalSince1970))")
    }

    public static func pushToStart(app: String, attributesType: String) -> String {
        token("push-to-start\u{0}\(app)\u{0}\(attributesType)")
    }

    public static func widget(extension ext: String, kind: String) -> String {
        token("widget\u{0}\(ext)\u{0}\(kind)")
    }

    /// FNV-1a 64 with four seeds, concatenated.
    static func token(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return (0..<4).map { seed -> String in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(seed &* 0x9E37_79B9)
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
