// seeds/004, "Button with App Intent", "invalidatableContent Modifier", the Dynamic Island's
// expanded bottom region and "Interactive Widget Button Not Working" (its ✅ half), verbatim
// inside the views that hold them. Left out: the "Toggle with App Intent" snippet (a
// `Toggle(isOn: $isEnabled)` binding with `.onChange`: app SwiftUI, which widgets cannot use)
// and the ❌ `Button(action:)` the seed shows as what does not work in a widget.
import AppIntents
import SwiftUI
import WidgetKit

struct IncrementButton: View {
    var body: some View {
        Button(intent: IncrementIntent()) {
            Label("Increment", systemImage: "plus.circle")
        }
    }
}

struct MyWidgetView: View {
    var entry: Provider.Entry

    var body: some View {
        VStack {
            Text(entry.status)
                .invalidatableContent() // Dims during intent execution

            Button(intent: RefreshIntent()) {
                Image(systemName: "arrow.clockwise")
            }
        }
    }
}

struct TimerControls: View {
    var body: some View {
        HStack {
            Button(intent: PauseIntent()) {
                Label("Pause", systemImage: "pause.fill")
            }
            Button(intent: StopIntent()) {
                Label("Stop", systemImage: "stop.fill")
            }
        }
    }
}

struct ActionButton: View {
    var body: some View {
        // ✅ CORRECT: Use intent parameter
        Button(intent: MyIntent()) {
            Label("Action", systemImage: "star")
        }
    }
}
