import WidgetHostProtocol

/// Text: one or more runs (`Text("a") + Text("b").bold()`), each a string, an inline
/// symbol, or a date the host computes when it displays the entry (`Text(date, style:)`,
/// `Text(timerInterval:countsDown:)`), so that a countdown counts without a reload.
public struct Text: _PrimitiveView, Sendable, Hashable {
    var runs: [ArchiveTextRun]

    init(runs: [ArchiveTextRun]) { self.runs = runs }

    /// Text from a localized string key; `"\(Image(systemName: "gift")) \(name)"` interpolates
    /// symbols, text and dates as SwiftUI's does. (No string tables here: the key is the text.)
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
        runs = key.runs
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) {
        runs = [ArchiveTextRun(.string(String(content)))]
    }

    public init(verbatim content: String) {
        runs = [ArchiveTextRun(.string(content))]
    }

    /// An image inside text, such as an SF Symbol.
    public init(_ image: Image) {
        runs = [image.textRun]
    }

    /// A date the host formats when it shows the entry: `.time`, `.date`, or one that
    /// changes every second (`.relative`, `.offset`, `.timer`).
    public init(_ date: Date, style: Text.DateStyle) {
        runs = [ArchiveTextRun(.date(date, style: style.style))]
    }

    /// A timer counting down to (or up from) the interval's bounds, live in the host.
    public init(
        timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true
    ) {
        runs = [
            ArchiveTextRun(
                .timer(
                    start: timerInterval.lowerBound, end: timerInterval.upperBound, countsDown: countsDown,
                    showsHours: showsHours))
        ]
    }

    /// A value formatted now, in the extension (not live).
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatInput: Equatable, F.FormatOutput == String {
        runs = [ArchiveTextRun(.string(format.format(input)))]
    }

    /// `Text.DateStyle`.
    public struct DateStyle: Sendable, Hashable {
        let style: ArchiveTextRun.DateStyle
        public static let time = DateStyle(style: .time)
        public static let date = DateStyle(style: .date)
        public static let relative = DateStyle(style: .relative)
        public static let offset = DateStyle(style: .offset)
        public static let timer = DateStyle(style: .timer)
    }

    public static func + (lhs: Text, rhs: Text) -> Text { Text(runs: lhs.runs + rhs.runs) }

    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.text(runs)) }

    /// The plain text, dates shown as their style's name: for tests and logs.
    var plainText: String {
        runs.map { run in
            switch run.content {
            case .string(let text): text
            case .symbol(let name): "[\(name)]"
            case .date(_, let style): "<\(style.rawValue)>"
            case .timer: "<timer>"
            }
        }.joined()
    }
}

// MARK: Modifiers that keep it Text (so that `+` still works)

extension Text {
    private func restyled(_ change: (inout ArchiveTextRun) -> Void) -> Text {
        var copy = self
        for index in copy.runs.indices { change(&copy.runs[index]) }
        return copy
    }

    /// Sets the font of the runs that have none yet (an inner `.font` wins, as in SwiftUI).
    public func font(_ font: Font?) -> Text {
        restyled { if $0.font == nil { $0.font = font?.archived } }
    }

    public func fontWeight(_ weight: Font.Weight?) -> Text {
        restyled { if $0.fontWeight == nil { $0.fontWeight = weight?.name } }
    }

    public func bold() -> Text { bold(true) }

    public func bold(_ isActive: Bool) -> Text { restyled { if $0.bold == nil { $0.bold = isActive } } }

    public func italic() -> Text { italic(true) }

    public func italic(_ isActive: Bool) -> Text { restyled { if $0.italic == nil { $0.italic = isActive } } }

    public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text {
        restyled { if $0.underline == nil { $0.underline = isActive } }
    }

    public func strikethrough(_ isActive: Bool = true, color: Color? = nil) -> Text {
        restyled { if $0.strikethrough == nil { $0.strikethrough = isActive } }
    }

    public func foregroundColor(_ color: Color?) -> Text {
        restyled { if $0.foreground == nil { $0.foreground = color.map { $0.archivedStyle } } }
    }

    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text {
        let archived = archiveStyle(style)
        return restyled { if $0.foreground == nil { $0.foreground = archived } }
    }

    public func monospacedDigit() -> Text {
        restyled { run in
            var font = run.font ?? ArchiveFont()
            font.monospacedDigit = true
            run.font = font
        }
    }
}
