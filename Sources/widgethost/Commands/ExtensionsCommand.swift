import ArgumentParser
import WidgetHostClient
import WidgetHostProtocol

struct ExtensionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extensions",
        abstract: "List the loaded widget extensions with their kinds, and the bundles skipped with why.",
        discussion: """
            An extension comes from a bundle: a NAME.appex directory in a plugin directory \
            (plugins.paths) with an Info.plist (NSExtensionPointIdentifier \
            com.apple.widgetkit-extension), an .entitlements file and its executable — what \
            an Xcode widget extension has. For each loaded one: its \
            bundle id, app, app groups, its sandbox (the mode, the rules applied and those \
            this kernel cannot apply, with why; --json says what each rule leaves it), and \
            the widget kinds of its WidgetBundle with their supported families. A bundle that breaks a rule is listed as skipped with the file \
            and the fix — the mistakes that make a real widget silently vanish from the gallery.

            Example:
              widgethost extensions
            """
    )

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: ExtensionsResult = try client.call(.extensions)
            if connection.json { return try Console.outputJSON(result) }
            Console.output(CatalogText.text(result))
        }
    }
}

struct RescanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescan",
        abstract: "Read the plugin directories again (like SIGHUP) and list what loaded.",
        discussion: """
            Picks up extensions installed, changed or removed since the daemon started: each \
            bundle is checked and asked for its widgets (`initialize`) again. Prints the same \
            list as `widgethost extensions`. Needs root, the daemon's user, or a group in \
            control.admin_groups.

            Example:
              widgethost rescan
            """
    )

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: ExtensionsResult = try client.call(.rescan)
            if connection.json { return try Console.outputJSON(result) }
            Console.output(CatalogText.text(result))
        }
    }
}
