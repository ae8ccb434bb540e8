import W8TrackrShared
import WidgetKit

@main
struct W8TrackrWidgets: WidgetBundle {
    var body: some Widget {
        WeightWidget()
        LogWeightControl()
    }
}
