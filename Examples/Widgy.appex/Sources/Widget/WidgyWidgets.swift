import WidgetKit
import WidgyShared

@main
struct WidgyWidgets: WidgetBundle {
    var body: some Widget {
        WidgyWidget()
    }
}
