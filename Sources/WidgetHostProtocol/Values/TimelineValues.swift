import Foundation

/// How relevant an entry is (WidgetKit's `TimelineEntryRelevance`): a score and, optionally,
/// for how many seconds from the entry's date it stays relevant.
public struct EntryRelevance: Sendable, Hashable, Codable {
    public var score: Double
    public var duration: Double?

    public init(score: Double, duration: Double? = nil) {
        self.score = score
        self.duration = duration
    }
}

/// One timeline entry on the wire: when it becomes current and what it shows.
/// The content is the extension's business; the host only stores and shows it. `view`
/// (protocol version 2) is the entry's rendered view, which the host displays; an entry
/// may carry either or both, and a missing `content` reads as null.
///
/// The view is kept out of line (an immutable box, shared by copies): inline it was 96 of
/// the entry's 152 bytes, and a widget record holds up to three entries beside its timeline,
/// most of them without a view (docs/benchmarks.md, figure 4).
public struct TimelineEntryPayload: Sendable, Hashable, Codable {
    public var date: Date
    public var relevance: EntryRelevance?
    public var content: JSONValue
    private var viewBox: ViewBox?

    public var view: ViewArchive? {
        get { viewBox?.archive }
        set { viewBox = newValue.map(ViewBox.init) }
    }

    public init(date: Date, relevance: EntryRelevance? = nil, content: JSONValue, view: ViewArchive? = nil) {
        self.date = date
        self.relevance = relevance
        self.content = content
        self.viewBox = view.map(ViewBox.init)
    }

    private enum CodingKeys: String, CodingKey { case date, relevance, content, view }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        date = try container.decode(Date.self, forKey: .date)
        relevance = try container.decodeIfPresent(EntryRelevance.self, forKey: .relevance)
        content = try container.decodeIfPresent(JSONValue.self, forKey: .content) ?? .null
        viewBox = ViewArchive.lenient(container, forKey: .view).map(ViewBox.init)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(relevance, forKey: .relevance)
        try container.encode(content, forKey: .content)
        try container.encodeIfPresent(view, forKey: .view)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.date == rhs.date && lhs.relevance == rhs.relevance && lhs.content == rhs.content && lhs.view == rhs.view
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(date)
        hasher.combine(relevance)
        hasher.combine(content)
        hasher.combine(view)
    }
}

/// An entry's view archive, out of line.
private final class ViewBox: Sendable {
    let archive: ViewArchive
    init(_ archive: ViewArchive) { self.archive = archive }
}

/// When the host should next ask for a timeline (WidgetKit's `TimelineReloadPolicy`).
/// On the wire: `{"type":"atEnd"}`, `{"type":"after","date":"…"}`, `{"type":"never"}`.
public enum TimelinePolicy: Sendable, Hashable, Codable, CustomStringConvertible {
    case atEnd
    case after(Date)
    case never

    private enum CodingKeys: String, CodingKey { case type, date }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "atEnd": self = .atEnd
        case "never": self = .never
        case "after": self = .after(try container.decode(Date.self, forKey: .date))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "policy type \"\(type)\" is not one of atEnd, after, never")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .atEnd: try container.encode("atEnd", forKey: .type)
        case .never: try container.encode("never", forKey: .type)
        case .after(let date):
            try container.encode("after", forKey: .type)
            try container.encode(date, forKey: .date)
        }
    }

    public var description: String {
        switch self {
        case .atEnd: ".atEnd"
        case .never: ".never"
        case .after(let date): ".after(\(RFC3339.format(date)))"
        }
    }
}

/// A timeline as an extension returns it from `timeline/get`.
public struct TimelinePayload: Sendable, Hashable, Codable {
    public var entries: [TimelineEntryPayload]
    public var policy: TimelinePolicy

    public init(entries: [TimelineEntryPayload], policy: TimelinePolicy) {
        self.entries = entries
        self.policy = policy
    }
}
