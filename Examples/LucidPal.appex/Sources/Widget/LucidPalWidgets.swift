import LucidPalShared
import WidgetKit

@main
struct LucidPalWidgets: WidgetBundle {
    var body: some Widget {
        LucidPalWidget()
    }
}
