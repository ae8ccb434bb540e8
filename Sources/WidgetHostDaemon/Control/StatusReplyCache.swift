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
    /// A class, so that finding one costs a retain, not a copy of the status it holds.
    private final class Entry {
        let generation: UInt64
        /// The status with the now-dependent fields set to `placeholder`; while `matches` runs,
        /// briefly the status with `now` in them.
        var key: WidgetStatus
        /// Which of the now-dependent fields were `now` (and are `placeholder` in `key`).
        let nextFreeSlotIsNow: Bool
        let nextReloadIsNow: Bool
        /// The widget's JSON, split where `placeholder` was: joined with `now`'s text.
        let pieces: [[UInt8]]

        init(generation: UInt64, key: WidgetStatus, nextFreeSlotIsNow: Bool, nextReloadIsNow: Bool, pieces: [[UInt8]]) {
            self.generation = generation
            self.key = key
            self.nextFreeSlotIsNow = nextFreeSlotIsNow
            self.nextReloadIsNow = nextReloadIsNow
            self.pieces = pieces
        }

        /// Whether `status` at `now` has this entry's key (`StatusReplyCache.key(of:now:)`'s
        /// value equals `key`), decided without building that key, a copy of the status (the
        /// copies and their release were ~2,000 of the cache's 10,100 instructions a widget).
        /// The fields that were `now` must be `now` again, and no other field may be: `now` is
        /// put into `key` where the placeholder is, the whole status compared (`==`, so a field
        /// added to `WidgetStatus` counts), and the placeholder put back.
        func matches(_ status: WidgetStatus, now: Date) -> Bool {
            guard (status.budget.nextFreeSlot == now) == nextFreeSlotIsNow, (status.nextReload.at == now) == nextReloadIsNow
            else { return false }
            // Through a pointer: reading the property for `==` copied the whole status first.
            return withUnsafeMutablePointer(to: &key) { key in
                if nextFreeSlotIsNow { key.pointee.budget.nextFreeSlot = now }
                if nextReloadIsNow { key.pointee.nextReload.at = now }
                defer {
                    if nextFreeSlotIsNow { key.pointee.budget.nextFreeSlot = StatusReplyCache.placeholder }
                    if nextReloadIsNow { key.pointee.nextReload.at = StatusReplyCache.placeholder }
                }
                return key.pointee == status
            }
        }
    }

    private var entries: [String: Entry] = [:]
    /// The loaded extensions' sandboxes, as the last answer had them.
    private var extensionsEntry: (generation: UInt64, value: [ExtensionStatus], bytes: [UInt8])?
    /// Bumped after every core step: no entry of an older generation is used.
    private(set) var generation: UInt64 = 0
    /// Widgets answered from the cache and encoded, for tests and the benchmark's account.
    private(set) var reused = 0
    /// The last result's array, written again in place by the next when nobody holds it any
    /// more (its allocation was ~450 instructions a request).
    private var scratch: [UInt8] = []
    private(set) var encoded = 0
    /// `now`'s text, kept for the rest of its second.
    private var recentNow = RFC3339.RecentSecond()

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
        now: Date, widgets: consuming [WidgetStatus], extensions: [ExtensionStatus]? = nil, everyWidget: Bool = true
    ) throws -> [UInt8] {
        // The date's bytes, for the whole answer: appending a String's UTF8View cost ~220
        // instructions each time; the fixed keys below are StaticStrings for the same reason.
        // Only the fraction is written when the second is the last request's (`RecentSecond`).
        recentNow.set(now)
        let nowText = recentNow.text
        var bytes = scratch
        scratch = []
        let lastCount = bytes.count
        bytes.removeAll(keepingCapacity: true)
        // The last answer's size: growing the array while appending cost ~1,100 instructions.
        bytes.reserveCapacity(max(64 + widgets.count * 1024, lastCount + 64))
        defer { scratch = bytes }
        bytes.append(UInt8(ascii: "{"))
        if let extensions {
            Self.append(#""extensions":"#, to: &bytes)
            if let cached = extensionsEntry, cached.generation == generation, cached.value == extensions {
                bytes.append(contentsOf: cached.bytes)
                // The same array from now on (the runtime keeps one per generation): `==`
                // then answers from the arrays' identity, without comparing sandboxes.
                extensionsEntry?.value = extensions
            } else {
                let encoded = Array(try WireCoding.encode(extensions))
                extensionsEntry = (generation, extensions, encoded)
                bytes.append(contentsOf: encoded)
            }
            bytes.append(UInt8(ascii: ","))
        }
        Self.append(#""now":""#, to: &bytes)
        bytes.append(contentsOf: nowText)
        Self.append(#"","widgets":["#, to: &bytes)
        // Entries of widgets no longer there are dropped; decided before the array is taken apart.
        let kept = everyWidget && entries.count > widgets.count ? Set(widgets.map(\.widget.id)) : nil
        // Each status moved out of the array, which is ours: iterating it, or reading
        // `widgets[index]`, copied each status first (~650 instructions a widget, callgrind).
        widgets.reverse()
        var first = true
        while let status = widgets.popLast() {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            try append(status, now: now, nowText: nowText, to: &bytes)
        }
        Self.append("]}", to: &bytes)
        if let kept { entries = entries.filter { kept.contains($0.key) } }
        return bytes
    }

    private func append(
        _ status: WidgetStatus, now: Date, nowText: [UInt8], to bytes: inout [UInt8]
    ) throws {
        guard Self.keepable(status) else {
            encoded += 1
            bytes.append(contentsOf: try WireCoding.encode(status))
            return
        }
        let id = status.widget.id
        if let entry = entries[id], entry.generation == generation, entry.matches(status, now: now) {
            reused += 1
            Self.join(entry.pieces, with: nowText, into: &bytes)
            return
        }
        encoded += 1
        guard let (key, placeholders) = Self.key(of: status, now: now) else {
            bytes.append(contentsOf: try WireCoding.encode(status))
            return
        }
        let template = Array(try WireCoding.encode(key))
        let pieces = Self.split(template, at: Self.placeholderText)
        guard pieces.count == placeholders + 1 else {
            // The placeholder's text is also somewhere else (a string that holds it): no reuse.
            entries[id] = nil
            bytes.append(contentsOf: try WireCoding.encode(status))
            return
        }
        entries[id] = Entry(
            generation: generation, key: key, nextFreeSlotIsNow: status.budget.nextFreeSlot == now,
            nextReloadIsNow: status.nextReload.at == now, pieces: pieces)
        Self.join(pieces, with: nowText, into: &bytes)
    }

    /// Whether a status may be kept at all: not one whose `staleSeconds` grows with every request.
    static func keepable(_ status: WidgetStatus) -> Bool {
        status.staleSeconds == 0 && status.staleSeconds.sign == .plus
    }

    /// The status with the fields that equal `now` set to `placeholder`, and how many; nil
    /// when it is not worth keeping (it changes with every request, or already holds the placeholder).
    static func key(of status: WidgetStatus, now: Date) -> (WidgetStatus, Int)? {
        guard keepable(status) else { return nil }
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

    private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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

    /// The pieces with `now`'s date, quoted, between them.
    private static func join(_ pieces: [[UInt8]], with now: [UInt8], into bytes: inout [UInt8]) {
        for (index, piece) in pieces.enumerated() {
            if index > 0 {
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: now)
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(contentsOf: piece)
        }
    }

}
