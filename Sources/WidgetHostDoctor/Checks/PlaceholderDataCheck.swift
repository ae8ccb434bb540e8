import Foundation

/// The placeholder must not touch app group data: the host asks for it before any data
/// may exist (right after the widget is added) and shows it while the real timeline loads.
/// The placeholder process runs with containers seeded with the sample data and watched
/// with inotify (`ContainerWatch`) from its start to its reply.
enum PlaceholderDataCheck {
    static let title = "placeholder does not touch app group data"

    static func finding(_ run: Caller.Run, widget: WidgetUnderTest, seeded: Bool) -> Finding {
        func finding(_ verdict: Finding.Verdict, _ detail: String, fix: String? = nil) -> Finding {
            Finding(.placeholderData, verdict, title: title, detail: detail, fix: fix, kind: widget.kind, family: widget.family)
        }
        guard !run.groups.isEmpty else {
            return finding(.pass, "the extension has no app group container to touch")
        }
        guard run.uses.isEmpty else {
            return finding(
                .fail,
                "while starting and answering placeholder/get it used \(run.uses.joined(separator: "; ")); the host asks "
                    + "for the placeholder before any data may exist and shows it while the timeline loads",
                fix: "Return fixed sample content from placeholder(in:): no app group, file, network or database "
                    + "access; read data only in getSnapshot and getTimeline")
        }
        let how = seeded
            ? "seeded with the sample data and watched with inotify"
            : "watched with inotify, but empty: ship sample data in Resources/AppGroups/GROUP/ to catch reads of files"
        return finding(.pass, "touched nothing in \(run.groups.joined(separator: ", ")) (\(how))")
    }
}
