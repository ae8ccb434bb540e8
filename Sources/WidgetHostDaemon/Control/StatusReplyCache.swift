import Foundation
import WidgetHostProtocol

/// `status`'s result as JSON bytes, kept between requests: encoding each widget's status
/// was about half of what a `status` request cost (callgrind), and between two requests
/// usually nothing but the time has changed.
///
/// Never stale, by construction. A widget's cached bytes are reused only when
/// - no core step ran since they were encoded (`generation`, bumped after every step: every
///   `HostEvent`, a rescan, a configuration, an activity, a clock advance), and
/// - the widget's status computed *now* equals, field by field, the status they were
///   encoded from — so time passing (a ledger start leaving the window, an entry's date
///   coming, a policy deadline passing) re-encodes the widget like any other change.
///
/// The fields that move with every request, `now` itself, are split off: the result's
/// `now`, and `budget.nextFreeSlot` / `nextReload.at` where they equal `now` (room in the
/// budget, a reload waiting to start), are written into the bytes at each request. A
/// widget whose `staleSeconds` is not 0 grows older with every request and is encoded each
/// time. Any doubt (a placeholder's text found where it was not put) means no reuse.
final class StatusReplyCache {
    private struct Entry {
        var generation: UInt64
        /// The status with the now-dependent fields set to `placeholder`.
        var key: WidgetStatus
        /// The widget's JSON, split where `placeholder` was: joined with `now`'s text.
        var pieces: [[UInt8]]
    }

    private var entries: [String: Entry] = [:]
    /// The loaded extensions' sandboxes, as the last answer had them.
    private var extensionsEntry: (generation: UInt64, value: [ExtensionStatus], bytes: [UInt8])?
    /// Bumped after every core step: no entry of an older generation is used.
    private(set) var generation: UInt64 = 0
    /// Widgets answered from the cache and encoded, for tests and the benchmark's account.
    private(set) var reused = 0
    /// The size of the last result, to reserve at the next.
    private var lastCount = 0
    private(set) var encoded = 0

    /// 0001-01-01T00:00:00Z: a time no widget's status carries.
    static let placeholder = Date(timeIntervalSince1970: -62_135_596_800)
    private static let placeholderText = Array("\"\(RFC3339.format(placeholder))\"".utf8)

    /// Every core step may change any widget's status.
    func invalidate() {
        generation &+= 1
    }

    /// `{"extensions":[…],"now":…,"widgets":[…]}`: the bytes
    /// `WireCoding.encode(StatusResult(now:widgets:extensions:))` gives. `everyWidget`: these
    /// are all the host's widgets (entries for others are dropped).
    func result(
        now: Date, widgets: [WidgetStatus], extensions: [ExtensionStatus]? = nil, everyWidget: Bool = true
    ) throws -> [UInt8] {
        var nowText: [UInt8] = []
        nowText.reserveCapacity(32)
        nowText.append(UInt8(ascii: "\""))
        nowText.append(contentsOf: RFC3339.format(now).utf8)
        nowText.append(UInt8(ascii: "\""))
        var bytes: [UInt8] = []
        // The last answer's size: growing the array while appending cost ~1,100 instructions.
        bytes.reserveCapacity(max(64 + widgets.count * 1024, lastCount + 64))
        defer { lastCount = bytes.count }
        bytes.append(UInt8(ascii: "{"))
        if let extensions {
            bytes.append(contentsOf: #""extensions":"#.utf8)
            if let cached = extensionsEntry, cached.generation == generation, cached.value == extensions {
                bytes.append(contentsOf: cached.bytes)
            } else {
                let encoded = Array(try WireCoding.encode(extensions))
                extensionsEntry = (generation, extensions, encoded)
                bytes.append(contentsOf: encoded)
            }
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(contentsOf: #""now":"#.utf8)
        bytes.append(contentsOf: nowText)
        bytes.append(contentsOf: #","widgets":["#.utf8)
        for (index, status) in widgets.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try append(status, now: now, nowText: nowText, to: &bytes)
        }
        bytes.append(contentsOf: "]}".utf8)
        if everyWidget, entries.count > widgets.count { prune(keeping: widgets) }
        return bytes
    }

    private func append(_ status: WidgetStatus, now: Date, nowText: [UInt8], to bytes: inout [UInt8]) throws {
        guard let (key, placeholders) = Self.key(of: status, now: now) else {
            encoded += 1
            bytes.append(contentsOf: try WireCoding.encode(status))
            return
        }
        let id = status.widget.id
        if let entry = entries[id], entry.generation == generation, entry.key == key {
            reused += 1
            Self.join(entry.pieces, with: nowText, into: &bytes)
            return
        }
        encoded += 1
        let template = Array(try WireCoding.encode(key))
        let pieces = Self.split(template, at: Self.placeholderText)
        guard pieces.count == placeholders + 1 else {
            // The placeholder's text is also somewhere else (a string that holds it): no reuse.
            entries[id] = nil
            bytes.append(contentsOf: try WireCoding.encode(status))
            return
        }
        entries[id] = Entry(generation: generation, key: key, pieces: pieces)
        Self.join(pieces, with: nowText, into: &bytes)
    }

    /// The status with the fields that equal `now` set to `placeholder`, and how many; nil
    /// when it is not worth keeping (it changes with every request, or already holds the placeholder).
    static func key(of status: WidgetStatus, now: Date) -> (WidgetStatus, Int)? {
        guard status.staleSeconds == 0, status.staleSeconds.sign == .plus else { return nil }
        var key = status
        var placeholders = 0
        if key.budget.nextFreeSlot == now {
            key.budget.nextFreeSlot = placeholder
            placeholders += 1
        }
        if key.nextReload.at == now {
            key.nextReload.at = placeholder
            placeholders += 1
        }
        return (key, placeholders)
    }

    static func split(_ bytes: [UInt8], at separator: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var start = 0
        var index = 0
        let last = bytes.count - separator.count
        while index <= last {
            if bytes[index] == separator[0], bytes[index..<(index + separator.count)].elementsEqual(separator) {
                pieces.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(Array(bytes[start...]))
        return pieces
    }

    private static func join(_ pieces: [[UInt8]], with separator: [UInt8], into bytes: inout [UInt8]) {
        for (index, piece) in pieces.enumerated() {
            if index > 0 { bytes.append(contentsOf: separator) }
            bytes.append(contentsOf: piece)
        }
    }

    private func prune(keeping widgets: [WidgetStatus]) {
        let ids = Set(widgets.map(\.widget.id))
        entries = entries.filter { ids.contains($0.key) }
    }
}
