import WidgetHostProtocol

/// A value within a range, drawn as `.gaugeStyle(_:)` says: a capacity bar, or on the lock
/// screen an accessory ring or bar.
public struct Gauge<Label: View, CurrentValueLabel: View, BoundsLabel: View, MarkedValueLabels: View>: _PrimitiveView {
    let value: Double
    let bounds: ClosedRange<Double>
    let label: Label
    let currentValueLabel: CurrentValueLabel?
    let minimumValueLabel: BoundsLabel?
    let maximumValueLabel: BoundsLabel?

    init(
        value: Double, bounds: ClosedRange<Double>, label: Label, currentValueLabel: CurrentValueLabel?,
        minimumValueLabel: BoundsLabel?, maximumValueLabel: BoundsLabel?
    ) {
        self.value = value.isFinite ? value : bounds.lowerBound
        self.bounds = bounds
        self.label = label
        self.currentValueLabel = currentValueLabel
        self.minimumValueLabel = minimumValueLabel
        self.maximumValueLabel = maximumValueLabel
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(
            .gauge(
                ArchiveGauge(
                    value: value, min: bounds.lowerBound, max: bounds.upperBound,
                    style: context.environment[GaugeStyleKey.self].name, label: context.archive(label),
                    currentValueLabel: currentValueLabel.map { context.archive($0) },
                    minimumValueLabel: minimumValueLabel.map { context.archive($0) },
                    maximumValueLabel: maximumValueLabel.map { context.archive($0) })))
    }

    private static func range<V: BinaryFloatingPoint>(_ bounds: ClosedRange<V>) -> ClosedRange<Double> {
        let lower = Double(bounds.lowerBound)
        let upper = Double(bounds.upperBound)
        return lower.isFinite && upper.isFinite ? lower...upper : 0...1
    }
}

extension Gauge where CurrentValueLabel == EmptyView, BoundsLabel == EmptyView, MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label) {
        self.init(
            value: Double(value), bounds: Self.range(bounds), label: label(), currentValueLabel: nil,
            minimumValueLabel: nil, maximumValueLabel: nil)
    }
}

extension Gauge where BoundsLabel == EmptyView, MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> CurrentValueLabel
    ) {
        self.init(
            value: Double(value), bounds: Self.range(bounds), label: label(), currentValueLabel: currentValueLabel(),
            minimumValueLabel: nil, maximumValueLabel: nil)
    }
}

extension Gauge where MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> CurrentValueLabel, @ViewBuilder minimumValueLabel: () -> BoundsLabel,
        @ViewBuilder maximumValueLabel: () -> BoundsLabel
    ) {
        self.init(
            value: Double(value), bounds: Self.range(bounds), label: label(), currentValueLabel: currentValueLabel(),
            minimumValueLabel: minimumValueLabel(), maximumValueLabel: maximumValueLabel())
    }
}

/// How gauges inside a view are drawn.
public protocol GaugeStyle: Sendable {
    var _name: String { get }
}

public struct DefaultGaugeStyle: GaugeStyle { public init() {}; public var _name: String { "automatic" } }
public struct LinearCapacityGaugeStyle: GaugeStyle { public init() {}; public var _name: String { "linearCapacity" } }
public struct AccessoryLinearGaugeStyle: GaugeStyle { public init() {}; public var _name: String { "accessoryLinear" } }
public struct AccessoryLinearCapacityGaugeStyle: GaugeStyle {
    public init() {}
    public var _name: String { "accessoryLinearCapacity" }
}
public struct AccessoryCircularGaugeStyle: GaugeStyle { public init() {}; public var _name: String { "accessoryCircular" } }
public struct AccessoryCircularCapacityGaugeStyle: GaugeStyle {
    public init() {}
    public var _name: String { "accessoryCircularCapacity" }
}

extension GaugeStyle where Self == DefaultGaugeStyle { public static var automatic: DefaultGaugeStyle { .init() } }
extension GaugeStyle where Self == LinearCapacityGaugeStyle {
    public static var linearCapacity: LinearCapacityGaugeStyle { .init() }
}
extension GaugeStyle where Self == AccessoryLinearGaugeStyle {
    public static var accessoryLinear: AccessoryLinearGaugeStyle { .init() }
}
extension GaugeStyle where Self == AccessoryLinearCapacityGaugeStyle {
    public static var accessoryLinearCapacity: AccessoryLinearCapacityGaugeStyle { .init() }
}
extension GaugeStyle where Self == AccessoryCircularGaugeStyle {
    public static var accessoryCircular: AccessoryCircularGaugeStyle { .init() }
}
extension GaugeStyle where Self == AccessoryCircularCapacityGaugeStyle {
    public static var accessoryCircularCapacity: AccessoryCircularCapacityGaugeStyle { .init() }
}

struct GaugeStyleKey: EnvironmentKey {
    struct Name: Sendable { let name: String }
    static let defaultValue = Name(name: "automatic")
}

extension View {
    public func gaugeStyle<S: GaugeStyle>(_ style: S) -> some View {
        _environment { $0[GaugeStyleKey.self] = GaugeStyleKey.Name(name: style._name) }
    }
}
