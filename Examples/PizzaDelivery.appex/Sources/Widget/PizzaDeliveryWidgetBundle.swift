import PizzaDeliveryWidgets
import WidgetKit

/// The pizza app's widget extension: its delivery Live Activity (Lock Screen and Dynamic
/// Island), drawn by the host through `activity/render`. It offers no home-screen widget.
@main
struct PizzaDeliveryWidgetBundle: WidgetBundle {
    var body: some Widget {
        PizzaDeliveryLiveActivity()
    }
}
