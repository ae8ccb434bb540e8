import Foundation

/// One piece of a `text` node: `Text("a") + Text(date, style: .relative)` is two runs,
/// and `Text("\(Image(systemName: "gift")) Ada")` is a symbol run and a string run.
/// Date runs are computed by the host when it displays them, as on a device.
public struct ArchiveTextRun: Sendable, Hashable, Codable {
    public enum Content: Sendable, Hashable {
        case string(String)
        /// An SF Symbol name, drawn inline.
        case symbol(String)
        /// `Text(date, style:)`.
        case date(Date, style: DateStyle)
        /// `Text(timerInterval:countsDown:showsHours:)`.
        case timer(start: Date, end: Date, countsDown: Bool, showsHours: Bool)
    }

    /// `Text.DateStyle`. `relative`, `offset` and `timer` change every second; `time` and
    /// `date` are fixed.
    public enum DateStyle: String, Sendable, Hashable, Codable, CaseIterable {
        case time, date, relative, offset, timer
    }

    public var content: Content
    public var font: ArchiveFont?
    public var fontWeight: String?
    public var foreground: ArchiveStyle?
    public var bold: Bool?
    public var italic: Bool?
    public var underline: Bool?
    public var strikethrough: Bool?

    public init(_ content: Content) { self.content = content }

    private enum CodingKeys: String, CodingKey {
        case text, symbol, date, style, timer, font, fontWeight, foreground, bold, italic, underline, strikethrough
    }

    private struct TimerRange: Codable {
        var start: Date
        var end: Date
        var countsDown: Bool?
        var showsHours: Bool?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = container.lenient(String.self, .text) {
            content = .string(text)
        } else if let name = container.lenient(String.self, .symbol) {
            content = .symbol(name)
        } else if let date = container.lenient(Date.self, .date) {
            content = .date(date, style: container.lenient(DateStyle.self, .style) ?? .date)
        } else if let timer = container.lenient(TimerRange.self, .timer) {
            content = .timer(
                start: timer.start, end: max(timer.start, timer.end), countsDown: timer.countsDown ?? true,
                showsHours: timer.showsHours ?? true)
        } else {
            content = .string("")
        }
        font = container.lenient(ArchiveFont.self, .font)
        fontWeight = container.lenient(String.self, .fontWeight)
        foreground = container.lenient(ArchiveStyle.self, .foreground)
        bold = container.lenient(Bool.self, .bold)
        italic = container.lenient(Bool.self, .italic)
        underline = container.lenient(Bool.self, .underline)
        strikethrough = container.lenient(Bool.self, .strikethrough)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch content {
        case .string(let text): try container.encode(text, forKey: .text)
        case .symbol(let name): try container.encode(name, forKey: .symbol)
        case .date(let date, let style):
            try container.encode(date, forKey: .date)
            try container.encode(style, forKey: .style)
        case .timer(let start, let end, let countsDown, let showsHours):
            try container.encode(
                TimerRange(start: start, end: end, countsDown: countsDown, showsHours: showsHours), forKey: .timer)
        }
        try container.encodeIfPresent(font, forKey: .font)
        try container.encodeIfPresent(fontWeight, forKey: .fontWeight)
        try container.encodeIfPresent(foreground, forKey: .foreground)
        try container.encodeIfPresent(bold, forKey: .bold)
        try container.encodeIfPresent(italic, forKey: .italic)
        try container.encodeIfPresent(underline, forKey: .underline)
        try container.encodeIfPresent(strikethrough, forKey: .strikethrough)
    }

    /// Whether the displayed text changes by itself as time passes.
    public var isLive: Bool {
        switch content {
        case .date(_, let style): style == .relative || style == .offset || style == .timer
        case .timer: true
        case .string, .symbol: false
        }
    }
}
