import WidgetHostProtocol

/// The size of each widget family on a device, in points, and the device's scale: where
/// the host draws an archive. The default is the iPhone table (a 6.1"/6.7" iPhone);
/// `systemExtraLarge` exists only on iPad.
public struct DeviceTable: Sendable, Hashable {
    public var name: String
    public var scale: Double
    public var sizes: [WidgetFamily: Size]

    public struct Size: Sendable, Hashable {
        public var width: Double
        public var height: Double
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    public init(name: String, scale: Double, sizes: [WidgetFamily: Size]) {
        self.name = name
        self.scale = scale
        self.sizes = sizes
    }

    public static let iPhone = DeviceTable(
        name: "iPhone", scale: 3,
        sizes: [
            .systemSmall: Size(width: 170, height: 170),
            .systemMedium: Size(width: 364, height: 170),
            .systemLarge: Size(width: 364, height: 382),
            .systemExtraLarge: Size(width: 715, height: 340),
            .accessoryCircular: Size(width: 76, height: 76),
            .accessoryRectangular: Size(width: 172, height: 76),
            .accessoryInline: Size(width: 257, height: 26),
        ])

    public func size(of family: WidgetFamily) -> Size {
        sizes[family] ?? Size(width: family.displaySize.width, height: family.displaySize.height)
    }
}

extension WidgetFamily {
    /// Lock screen families: no container background, vibrant by default, no content margins.
    var isAccessory: Bool {
        switch self {
        case .accessoryCircular, .accessoryRectangular, .accessoryInline: true
        default: false
        }
    }

    /// The system's content margins (iOS 17): 16 pt on the home screen, none on the lock screen.
    var contentMargin: Double { isAccessory ? 0 : 16 }

    /// The corner radius the home screen clips widgets to.
    var cornerRadius: Double {
        switch self {
        case .accessoryCircular: 38
        case .accessoryRectangular: 10
        case .accessoryInline: 0
        default: 22
        }
    }
}
