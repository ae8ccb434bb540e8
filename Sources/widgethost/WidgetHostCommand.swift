import ArgumentParser

/// The command tree; `main.swift` runs it (after the hot commands' fast path, `ReloadFastPath`).
struct WidgetHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgethost",
        abstract: "Talk to widgethostd, the host that runs WidgetKit-style widget extensions.",
        discussion: """
            widgethostd does on Linux what the WidgetKit host does on an iPhone: it asks widget \
            extensions for timelines, shows the right entry at the right time, and decides when \
            each widget may reload — a 40–70 a day refresh budget per widget, a 5-minute minimum \
            interval, a 5-second timeline deadline and a 30 MB memory limit. Unlike the real host, \
            it tells you why a reload was deferred.

            Apps ask for reloads as WidgetCenter.shared does (`reload`); users add, remove and look \
            at widgets (`add`, `remove`, `view`); developers and operators watch what happens \
            (`status`, `timeline`, `events`, `extensions`).

            The daemon's socket is --socket PATH, else $WIDGETHOST_SOCKET, else \
            /run/widgethost.sock. Every command takes --json for scripts.

            Examples:
              widgethost status                   every widget at a glance
              widgethost reload --kind BirthdayHomeWidget
              widgethost status w1                the whole story of one widget
              widgethost events                   watch reloads as they happen

            Exit status: 0 done; 64 usage error; 65 the daemon refused the request (it says why); \
            69 the daemon is not reachable; 75 it did not answer in time; 76 its answer made no \
            sense; 77 permission denied.
            """,
        subcommands: [
            ReloadCommand.self,
            ListCommand.self,
            StatusCommand.self,
            TimelineCommand.self,
            RenderCommand.self,
            GalleryCommand.self,
            LockScreenCommand.self,
            AddCommand.self,
            ConfigureCommand.self,
            OptionsCommand.self,
            TapCommand.self,
            ControlsCommand.self,
            ControlCommand.self,
            DeviceCommand.self,
            RemoveCommand.self,
            ViewCommand.self,
            ExtensionsCommand.self,
            EventsCommand.self,
            RescanCommand.self,
            DoctorCommand.self,
            SimulateCommand.self,
            ClockCommand.self,
            ActivitiesCommand.self,
            ActivityCommand.self,
            PushCommand.self,
        ]
    )
}
