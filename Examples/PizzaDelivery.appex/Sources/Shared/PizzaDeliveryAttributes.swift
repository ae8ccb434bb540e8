import ActivityKit
import Foundation

/// seeds/004's Live Activity, as written there.
public enum DeliveryStatus: String, Codable, Hashable, CaseIterable, Sendable {
    case preparing, onTheWay, delivered
}

public struct PizzaDeliveryAttributes: ActivityAttributes {
    // Static data - set when activity starts, never changes
    public struct ContentState: Codable, Hashable, Sendable {
        // Dynamic data - updated throughout activity lifecycle
        public var status: DeliveryStatus
        public var estimatedDeliveryTime: Date
        public var driverName: String?

        public init(status: DeliveryStatus, estimatedDeliveryTime: Date, driverName: String? = nil) {
            self.status = status
            self.estimatedDeliveryTime = estimatedDeliveryTime
            self.driverName = driverName
        }
    }

    // Static attributes
    public var orderNumber: String
    public var pizzaType: String

    public init(orderNumber: String, pizzaType: String) {
        self.orderNumber = orderNumber
        self.pizzaType = pizzaType
    }
}

/// The pizza app's three calls, as the seed makes them.
public enum PizzaOrders {
    public static func start(orderNumber: String, pizzaType: String, minutes: Double, pushToken: Bool) throws
        -> Activity<PizzaDeliveryAttributes>
    {
        let attributes = PizzaDeliveryAttributes(orderNumber: orderNumber, pizzaType: pizzaType)
        let initialState = PizzaDeliveryAttributes.ContentState(
            status: .preparing, estimatedDeliveryTime: Date().addingTimeInterval(minutes * 60))
        return try Activity.request(
            attributes: attributes, content: ActivityContent(state: initialState, staleDate: nil),
            pushType: pushToken ? .token : nil)
    }

    public static func find(_ id: String) -> Activity<PizzaDeliveryAttributes>? {
        Activity<PizzaDeliveryAttributes>.activities.first(where: { $0.id == id })
    }
}
