import ActivityKit
import PizzaDeliveryShared
import SwiftUI
import WidgetKit

/// seeds/004's delivery Live Activity: the Lock Screen view and the Dynamic Island, in the
/// seed's shape (a timer image leading, the time remaining trailing), for the pizza order.
public struct PizzaDeliveryLiveActivity: Widget {
    public init() {}

    public var body: some WidgetConfiguration {
        ActivityConfiguration(for: PizzaDeliveryAttributes.self) { context in
            VStack(alignment: .leading) {
                HStack {
                    Image(systemName: "box.truck.fill")
                    Text("Order #\(context.attributes.orderNumber) · \(context.attributes.pizzaType)")
                        .font(.headline)
                }
                Text(PizzaStatusText.text(context.state))
                HStack {
                    Text("Arrives")
                        .font(.caption)
                    Text(context.state.estimatedDeliveryTime, style: .time)
                        .font(.caption)
                }
                if context.isStale {
                    Text("Out of date")
                        .font(.caption2)
                }
            }
            .activityBackgroundTint(Color.black)
            .activitySystemActionForegroundColor(Color.white)
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    Image(systemName: "timer")
                        .font(.title)
                }
                DynamicIslandExpandedRegion(.trailing) {
                    VStack(alignment: .trailing) {
                        Text(context.state.estimatedDeliveryTime, style: .timer)
                            .font(.title2.monospacedDigit())
                        Text("remaining")
                            .font(.caption)
                    }
                }
                DynamicIslandExpandedRegion(.center) {
                    Text("\(context.attributes.pizzaType) #\(context.attributes.orderNumber)")
                }
                DynamicIslandExpandedRegion(.bottom) {
                    Text(PizzaStatusText.text(context.state))
                }
            } compactLeading: {
                Image(systemName: "timer")
            } compactTrailing: {
                Text(context.state.estimatedDeliveryTime, style: .timer)
                    .frame(width: 40)
            } minimal: {
                Image(systemName: "timer")
                    .foregroundStyle(.tint)
            }
            .keylineTint(Color.orange)
            .widgetURL(URL(string: "pizza://order/\(context.attributes.orderNumber)"))
        }
    }
}

/// The delivery's status as one sentence, with the driver when there is one.
enum PizzaStatusText {
    static func text(_ state: PizzaDeliveryAttributes.ContentState) -> String {
        switch state.status {
        case .preparing: "Your pizza is being prepared"
        case .onTheWay: state.driverName.map { "\($0) is on the way" } ?? "Your pizza is on the way"
        case .delivered: "Delivered"
        }
    }
}
