import Foundation

/// One node of a view archive: what it is (`content`) and the modifiers applied to it, in
/// the order they were written (the first wraps the view, the next wraps that, …).
///
/// Decoding never throws: a node whose `type` is unknown, or whose fields have the wrong
/// shape, becomes `.unknown(type:)`, which the host shows as a placeholder and reports.
public struct ViewNode: Sendable, Hashable, Codable {
    public indirect enum Content: Sendable, Hashable {
        case empty
        case text([ArchiveTextRun])
        /// `alignment`: `leading`, `center`, `trailing`.
        case vstack(alignment: String, spacing: Double?, children: [ViewNode])
        /// `alignment`: `top`, `center`, `bottom`, `firstTextBaseline`, `lastTextBaseline`.
        case hstack(alignment: String, spacing: Double?, children: [ViewNode])
        /// `alignment`: `topLeading`, `top`, …, `center`, …, `bottomTrailing`.
        case zstack(alignment: String, children: [ViewNode])
        /// `Group`, `ForEach`, several views in a builder: its children join the parent's layout.
        case group([ViewNode])
        case spacer(minLength: Double?)
        case divider
        case image(ArchiveImage)
        /// `style`: `titleAndIcon`, `titleOnly`, `iconOnly`.
        case label(title: ViewNode, icon: ViewNode, style: String)
        case gauge(ArchiveGauge)
        case progress(ArchiveProgress)
        case link(url: String, label: ViewNode)
        case shape(ArchiveShape, fill: ArchiveStyle?, stroke: ArchiveStyle?, lineWidth: Double?)
        /// A `Color` or `LinearGradient` used as a view: it fills the space it is offered.
        case fill(ArchiveStyle)
        case accessoryWidgetBackground
        /// The first child that fits; `axes`: `horizontal`, `vertical`.
        case viewThatFits(axes: [String], children: [ViewNode])
        /// `Button(intent:)`: a tap runs its intent (protocol version 3).
        case button(ArchiveIntentControl)
        /// `Toggle(isOn:intent:)`: a tap flips `isOn` and runs its intent (protocol version 3).
        case toggle(ArchiveIntentControl)
        case unknown(type: String)
    }

    public var content: Content
    public var modifiers: [ViewModifierNode]

    public init(_ content: Content, modifiers: [ViewModifierNode] = []) {
        self.content = content
        self.modifiers = modifiers
    }

    /// The wire name of the node's type.
    public var type: String {
        switch content {
        case .empty: "empty"
        case .text: "text"
        case .vstack: "vstack"
        case .hstack: "hstack"
        case .zstack: "zstack"
        case .group: "group"
        case .spacer: "spacer"
        case .divider: "divider"
        case .image: "image"
        case .label: "label"
        case .gauge: "gauge"
        case .progress: "progress"
        case .link: "link"
        case .shape: "shape"
        case .fill: "fill"
        case .accessoryWidgetBackground: "accessoryWidgetBackground"
        case .viewThatFits: "viewThatFits"
        case .button: "button"
        case .toggle: "toggle"
        case .unknown(let type): type
        }
    }

    /// The nodes directly inside this one, modifiers' views included (a background's view,
    /// an overlay's, a container background's).
    public var childNodes: [ViewNode] {
        var nodes: [ViewNode]
        switch content {
        case .vstack(_, _, let children), .hstack(_, _, let children), .zstack(_, let children), .group(let children),
            .viewThatFits(_, let children):
            nodes = children
        case .label(let title, let icon, _): nodes = [title, icon]
        case .gauge(let gauge):
            nodes = [gauge.label, gauge.currentValueLabel, gauge.minimumValueLabel, gauge.maximumValueLabel]
                .compactMap { $0 }
        case .progress(let progress): nodes = [progress.label, progress.currentValueLabel].compactMap { $0 }
        case .link(_, let label): nodes = [label]
        case .button(let control), .toggle(let control): nodes = [control.label]
        case .empty, .text, .spacer, .divider, .image, .shape, .fill, .accessoryWidgetBackground, .unknown:
            nodes = []
        }
        for modifier in modifiers {
            if let view = modifier.view { nodes.append(view) }
        }
        return nodes
    }

    // MARK: Coding

    private enum CodingKeys: String, CodingKey {
        case type, modifiers, runs, alignment, spacing, children, minLength, title, icon, style, url, label, shape,
            fill, stroke, lineWidth, axes
    }

    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            self.init(.unknown(type: "(not an object)"))
            return
        }
        let type = container.lenient(String.self, .type) ?? "(missing type)"
        self.init(
            Self.content(type, container, decoder) ?? .unknown(type: type),
            modifiers: container.lenient([ViewModifierNode].self, .modifiers) ?? [])
    }

    private static func content(
        _ type: String, _ container: KeyedDecodingContainer<CodingKeys>, _ decoder: any Decoder
    ) -> Content? {
        func children() -> [ViewNode] { container.lenient([ViewNode].self, .children) ?? [] }
        func node(_ key: CodingKeys) -> ViewNode { container.lenient(ViewNode.self, key) ?? ViewNode(.empty) }
        switch type {
        case "empty": return .empty
        case "text":
            guard let runs = container.lenient([ArchiveTextRun].self, .runs) else { return nil }
            return .text(runs)
        case "vstack":
            return .vstack(
                alignment: container.lenient(String.self, .alignment) ?? "center",
                spacing: container.number(.spacing), children: children())
        case "hstack":
            return .hstack(
                alignment: container.lenient(String.self, .alignment) ?? "center",
                spacing: container.number(.spacing), children: children())
        case "zstack":
            return .zstack(alignment: container.lenient(String.self, .alignment) ?? "center", children: children())
        case "group": return .group(children())
        case "spacer": return .spacer(minLength: container.number(.minLength))
        case "divider": return .divider
        case "image": return (try? ArchiveImage(from: decoder)).map(Content.image)
        case "label":
            return .label(
                title: node(.title), icon: node(.icon), style: container.lenient(String.self, .style) ?? "titleAndIcon")
        case "gauge": return (try? ArchiveGauge(from: decoder)).map(Content.gauge)
        case "progress": return (try? ArchiveProgress(from: decoder)).map(Content.progress)
        case "link":
            guard let url = container.lenient(String.self, .url) else { return nil }
            return .link(url: url, label: node(.label))
        case "shape":
            return .shape(
                container.lenient(ArchiveShape.self, .shape) ?? ArchiveShape(type: "rectangle"),
                fill: container.lenient(ArchiveStyle.self, .fill), stroke: container.lenient(ArchiveStyle.self, .stroke),
                lineWidth: container.number(.lineWidth))
        case "fill":
            guard let style = container.lenient(ArchiveStyle.self, .style) else { return nil }
            return .fill(style)
        case "accessoryWidgetBackground": return .accessoryWidgetBackground
        case "viewThatFits":
            return .viewThatFits(
                axes: container.lenient([String].self, .axes) ?? ["horizontal", "vertical"], children: children())
        case "button": return (try? ArchiveIntentControl(from: decoder)).map(Content.button)
        case "toggle":
            guard let control = try? ArchiveIntentControl(from: decoder), control.isOn != nil else { return nil }
            return .toggle(control)
        default: return nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        switch content {
        case .empty, .divider, .accessoryWidgetBackground, .unknown:
            break
        case .text(let runs):
            try container.encode(runs, forKey: .runs)
        case .vstack(let alignment, let spacing, let children), .hstack(let alignment, let spacing, let children):
            try container.encode(alignment, forKey: .alignment)
            try container.encodeIfPresent(spacing, forKey: .spacing)
            try container.encode(children, forKey: .children)
        case .zstack(let alignment, let children):
            try container.encode(alignment, forKey: .alignment)
            try container.encode(children, forKey: .children)
        case .group(let children):
            try container.encode(children, forKey: .children)
        case .spacer(let minLength):
            try container.encodeIfPresent(minLength, forKey: .minLength)
        case .image(let image):
            try image.encode(to: encoder)
        case .label(let title, let icon, let style):
            try container.encode(title, forKey: .title)
            try container.encode(icon, forKey: .icon)
            try container.encode(style, forKey: .style)
        case .gauge(let gauge):
            try gauge.encode(to: encoder)
        case .progress(let progress):
            try progress.encode(to: encoder)
        case .link(let url, let label):
            try container.encode(url, forKey: .url)
            try container.encode(label, forKey: .label)
        case .shape(let shape, let fill, let stroke, let lineWidth):
            try container.encode(shape, forKey: .shape)
            try container.encodeIfPresent(fill, forKey: .fill)
            try container.encodeIfPresent(stroke, forKey: .stroke)
            try container.encodeIfPresent(lineWidth, forKey: .lineWidth)
        case .fill(let style):
            try container.encode(style, forKey: .style)
        case .viewThatFits(let axes, let children):
            try container.encode(axes, forKey: .axes)
            try container.encode(children, forKey: .children)
        case .button(let control), .toggle(let control):
            try control.encode(to: encoder)
        }
        if !modifiers.isEmpty { try container.encode(modifiers, forKey: .modifiers) }
    }
}

/// An `Image`: an SF Symbol, an image in the extension's bundle, or a file in one of its
/// app group containers. Anything else (a remote URL, a path outside those) is refused by
/// the host when it displays it, as on a device.
public struct ArchiveImage: Sendable, Hashable, Codable {
    public enum Source: Sendable, Hashable {
        case system(String)
        case asset(String)
        case file(String)
    }

    public var source: Source
    public var resizable: Bool
    /// The accessibility label; not drawn.
    public var label: String?

    public init(_ source: Source, resizable: Bool = false, label: String? = nil) {
        self.source = source
        self.resizable = resizable
        self.label = label
    }

    private enum CodingKeys: String, CodingKey { case system, asset, file, resizable, label }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let name = container.lenient(String.self, .system) {
            source = .system(name)
        } else if let name = container.lenient(String.self, .asset) {
            source = .asset(name)
        } else if let path = container.lenient(String.self, .file) {
            source = .file(path)
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.system, .init(codingPath: decoder.codingPath, debugDescription: "an image needs a source"))
        }
        resizable = container.lenient(Bool.self, .resizable) ?? false
        label = container.lenient(String.self, .label)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch source {
        case .system(let name): try container.encode(name, forKey: .system)
        case .asset(let name): try container.encode(name, forKey: .asset)
        case .file(let path): try container.encode(path, forKey: .file)
        }
        if resizable { try container.encode(true, forKey: .resizable) }
        try container.encodeIfPresent(label, forKey: .label)
    }
}

/// A `Gauge` with its style resolved (`.gaugeStyle(_:)` applies to the gauges inside).
/// `style`: `automatic`, `linearCapacity`, `accessoryLinear`, `accessoryLinearCapacity`,
/// `accessoryCircular`, `accessoryCircularCapacity`.
public struct ArchiveGauge: Sendable, Hashable, Codable {
    public var value: Double
    public var min: Double
    public var max: Double
    public var style: String
    public var label: ViewNode?
    public var currentValueLabel: ViewNode?
    public var minimumValueLabel: ViewNode?
    public var maximumValueLabel: ViewNode?

    public init(
        value: Double, min: Double = 0, max: Double = 1, style: String = "automatic", label: ViewNode? = nil,
        currentValueLabel: ViewNode? = nil, minimumValueLabel: ViewNode? = nil, maximumValueLabel: ViewNode? = nil
    ) {
        self.value = value
        self.min = min
        self.max = max
        self.style = style
        self.label = label
        self.currentValueLabel = currentValueLabel
        self.minimumValueLabel = minimumValueLabel
        self.maximumValueLabel = maximumValueLabel
    }

    private enum CodingKeys: String, CodingKey {
        case value, min, max, style, label, currentValueLabel, minimumValueLabel, maximumValueLabel
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = container.number(.value) ?? 0
        min = container.number(.min) ?? 0
        max = container.number(.max) ?? 1
        style = container.lenient(String.self, .style) ?? "automatic"
        label = container.lenient(ViewNode.self, .label)
        currentValueLabel = container.lenient(ViewNode.self, .currentValueLabel)
        minimumValueLabel = container.lenient(ViewNode.self, .minimumValueLabel)
        maximumValueLabel = container.lenient(ViewNode.self, .maximumValueLabel)
    }

    /// How full the gauge is, 0…1.
    public var fraction: Double {
        guard max > min else { return 0 }
        return Swift.min(1, Swift.max(0, (value - min) / (max - min)))
    }
}

/// A `ProgressView`: a fraction (nil: indeterminate), or a timer interval the host fills
/// at display time. `style`: `linear`, `circular`.
public struct ArchiveProgress: Sendable, Hashable, Codable {
    public struct TimerInterval: Sendable, Hashable, Codable {
        public var start: Date
        public var end: Date
        public var countsDown: Bool
        public init(start: Date, end: Date, countsDown: Bool) {
            self.start = start
            self.end = end
            self.countsDown = countsDown
        }
    }

    public var fraction: Double?
    public var timer: TimerInterval?
    public var style: String
    public var label: ViewNode?
    public var currentValueLabel: ViewNode?

    public init(
        fraction: Double? = nil, timer: TimerInterval? = nil, style: String = "linear", label: ViewNode? = nil,
        currentValueLabel: ViewNode? = nil
    ) {
        self.fraction = fraction
        self.timer = timer
        self.style = style
        self.label = label
        self.currentValueLabel = currentValueLabel
    }

    private enum CodingKeys: String, CodingKey { case fraction, timer, style, label, currentValueLabel }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fraction = container.number(.fraction).map { Swift.min(1, Swift.max(0, $0)) }
        timer = container.lenient(TimerInterval.self, .timer)
        style = container.lenient(String.self, .style) ?? "linear"
        label = container.lenient(ViewNode.self, .label)
        currentValueLabel = container.lenient(ViewNode.self, .currentValueLabel)
    }
}
