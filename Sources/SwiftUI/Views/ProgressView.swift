import WidgetHostProtocol

/// Progress towards completion: a fraction, indeterminate, or a timer interval that the
/// host fills at display time (`ProgressView(timerInterval:countsDown:)`), live.
public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {
    let fraction: Double?
    let timer: ArchiveProgress.TimerInterval?
    let label: Label?
    let currentValueLabel: CurrentValueLabel?

    init(fraction: Double?, timer: ArchiveProgress.TimerInterval?, label: Label?, currentValueLabel: CurrentValueLabel?) {
        self.fraction = fraction
        self.timer = timer
        self.label = label
        self.currentValueLabel = currentValueLabel
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(
            .progress(
                ArchiveProgress(
                    fraction: fraction, timer: timer, style: context.environment[ProgressViewStyleKey.self].name,
                    label: label.map { context.archive($0) },
                    currentValueLabel: currentValueLabel.map { context.archive($0) })))
    }

    static func fraction<V: BinaryFloatingPoint>(_ value: V?, _ total: V) -> Double? {
        guard let value else { return nil }
        let fraction = Double(value) / Double(total)
        return fraction.isFinite ? min(1, max(0, fraction)) : 0
    }

    static func timer(_ interval: ClosedRange<Date>, _ countsDown: Bool) -> ArchiveProgress.TimerInterval {
        ArchiveProgress.TimerInterval(start: interval.lowerBound, end: interval.upperBound, countsDown: countsDown)
    }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    public init() { self.init(fraction: nil, timer: nil, label: nil, currentValueLabel: nil) }

    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        self.init(fraction: Self.fraction(value, total), timer: nil, label: nil, currentValueLabel: nil)
    }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        self.init(fraction: Self.fraction(value, total), timer: nil, label: label(), currentValueLabel: nil)
    }
}

extension ProgressView {
    public init<V: BinaryFloatingPoint>(
        value: V?, total: V = 1.0, @ViewBuilder label: () -> Label, @ViewBuilder currentValueLabel: () -> CurrentValueLabel
    ) {
        self.init(fraction: Self.fraction(value, total), timer: nil, label: label(), currentValueLabel: currentValueLabel())
    }

    public init(
        timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> CurrentValueLabel
    ) {
        self.init(
            fraction: nil, timer: Self.timer(timerInterval, countsDown), label: label(),
            currentValueLabel: currentValueLabel())
    }
}

extension ProgressView where Label == Text, CurrentValueLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(_ titleKey: LocalizedStringKey, value: V?, total: V = 1.0) {
        self.init(fraction: Self.fraction(value, total), timer: nil, label: Text(titleKey), currentValueLabel: nil)
    }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == DefaultDateProgressLabel {
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {
        self.init(
            fraction: nil, timer: Self.timer(timerInterval, countsDown), label: nil,
            currentValueLabel: DefaultDateProgressLabel(interval: timerInterval, countsDown: countsDown))
    }
}

extension ProgressView where CurrentValueLabel == DefaultDateProgressLabel {
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label) {
        self.init(
            fraction: nil, timer: Self.timer(timerInterval, countsDown), label: label(),
            currentValueLabel: DefaultDateProgressLabel(interval: timerInterval, countsDown: countsDown))
    }
}

/// The time remaining (or elapsed) of a timer progress view, counting live.
public struct DefaultDateProgressLabel: _PrimitiveView {
    let interval: ClosedRange<Date>
    let countsDown: Bool

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        context.archive(Text(timerInterval: interval, countsDown: countsDown))
    }
}

/// How progress views inside a view are drawn: `.linear` or `.circular`.
public protocol ProgressViewStyle: Sendable {
    var _name: String { get }
}

public struct DefaultProgressViewStyle: ProgressViewStyle { public init() {}; public var _name: String { "linear" } }
public struct LinearProgressViewStyle: ProgressViewStyle { public init() {}; public var _name: String { "linear" } }
public struct CircularProgressViewStyle: ProgressViewStyle { public init() {}; public var _name: String { "circular" } }

extension ProgressViewStyle where Self == DefaultProgressViewStyle {
    public static var automatic: DefaultProgressViewStyle { .init() }
}
extension ProgressViewStyle where Self == LinearProgressViewStyle {
    public static var linear: LinearProgressViewStyle { .init() }
}
extension ProgressViewStyle where Self == CircularProgressViewStyle {
    public static var circular: CircularProgressViewStyle { .init() }
}

struct ProgressViewStyleKey: EnvironmentKey {
    struct Name: Sendable { let name: String }
    static let defaultValue = Name(name: "linear")
}

extension View {
    public func progressViewStyle<S: ProgressViewStyle>(_ style: S) -> some View {
        _environment { $0[ProgressViewStyleKey.self] = ProgressViewStyleKey.Name(name: style._name) }
    }
}
