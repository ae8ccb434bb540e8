import Foundation
import Testing
@testable import WidgetHostConfiguration

/// Group names a test system is assumed to have.
private let testGroups: @Sendable (String) -> UInt32? = { ["widgethost": 981, "adm": 4][$0] }

private func refusal(_ text: String) -> ConfigError? {
    do {
        _ = try DaemonConfiguration.parse(
            text: text, file: "config/widgethost.toml", currentDirectory: "/work", groupID: testGroups)
        return nil
    } catch {
        return error
    }
}

@Suite("The config file's refusals")
struct ConfigRefusalTests {

    struct Refusal: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: String
        var kind: ConfigError.Kind
        var testDescription: String { expected }
    }

    @Test(
        "Each bad value is refused with the file, the line and the fix",
        arguments: [
            // Order.
            Refusal(
                text: "# budget\n\n[budget]\nmin = 90\nmax = 70",
                expected: "config/widgethost.toml:4: budget.min = 90 is above budget.max = 70; set budget.min ≤ budget.max",
                kind: .inconsistent),
            Refusal(
                text: "[budget]\nmax = 30",
                expected: "config/widgethost.toml:2: budget.max = 30 is below budget.min = 40; set budget.min ≤ budget.max",
                kind: .inconsistent),
            Refusal(
                text: "[budget]\nmin = 40\nmax = 30",
                expected: "config/widgethost.toml:3: budget.max = 30 is below budget.min = 40; set budget.min ≤ budget.max",
                kind: .inconsistent),
            Refusal(
                text: "[limits]\nwarn_entries = 100\nmax_entries = 50",
                expected: "config/widgethost.toml:3: limits.max_entries = 50 is below limits.warn_entries = 100; set limits.warn_entries ≤ limits.max_entries",
                kind: .inconsistent),
            Refusal(
                text: "[limits]\nwarn_entries = 500",
                expected: "config/widgethost.toml:2: limits.warn_entries = 500 is above limits.max_entries = 400; set limits.warn_entries ≤ limits.max_entries",
                kind: .inconsistent),
            Refusal(
                text: "[backoff]\ninitial = \"2h\"",
                expected: "config/widgethost.toml:2: backoff.initial = \"2h\" is above backoff.maximum = \"1h\"; set backoff.initial ≤ backoff.maximum",
                kind: .inconsistent),
            // Unknown keys and tables.
            Refusal(
                text: "[budget]\nminimum = 40",
                expected: "config/widgethost.toml:2: unknown key budget.minimum; known keys in [budget]: min, max, full_engagement_views, learning_period, enforce, pinned",
                kind: .unknownKey),
            Refusal(
                text: "[budget]\nmni = 40",
                expected: "config/widgethost.toml:2: unknown key budget.mni; did you mean budget.min? Known keys in [budget]: min, max, full_engagement_views, learning_period, enforce, pinned",
                kind: .unknownKey),
            Refusal(
                text: "[limits]\nmax-entries = 40",
                expected: "config/widgethost.toml:2: unknown key limits.max-entries; did you mean limits.max_entries? Known keys in [limits]: warn_entries, max_entries, max_timeline_bytes, max_view_nodes, max_view_depth, timeline_timeout, placeholder_timeout, intent_timeout, memory, memory_sample_interval, sandbox, processes, open_files, cgroup",
                kind: .unknownKey),
            Refusal(
                text: "\n[budgets]\nmin = 40",
                expected: "config/widgethost.toml:2: unknown table budgets; did you mean [budget]? Known tables: socket, state, plugins, app_groups, control, log, dashboard, budget, policy, limits, backoff, extension, activities",
                kind: .unknownKey),
            Refusal(
                text: "verbose = true",
                expected: "config/widgethost.toml:1: unknown key verbose; known tables: socket, state, plugins, app_groups, control, log, dashboard, budget, policy, limits, backoff, extension, activities",
                kind: .unknownKey),
            // Types.
            Refusal(
                text: "[budget]\nmin = \"40\"",
                expected: "config/widgethost.toml:2: budget.min: expected an integer, got a string; write budget.min = 40 without quotes",
                kind: .wrongType),
            Refusal(
                text: "[budget]\nmin = \"forty\"",
                expected: "config/widgethost.toml:2: budget.min: expected an integer, got a string",
                kind: .wrongType),
            Refusal(
                text: "[budget]\nmax = 70.0",
                expected: "config/widgethost.toml:2: budget.max: expected an integer, got a float; write budget.max = 70 without a decimal point",
                kind: .wrongType),
            Refusal(
                text: "budget = 5",
                expected: "config/widgethost.toml:1: budget: expected a table, got an integer; write [budget] with its keys below it",
                kind: .wrongType),
            Refusal(
                text: "[budget]\nenforce = \"false\"",
                expected: "config/widgethost.toml:2: budget.enforce: expected true or false, got a string; write budget.enforce = false without quotes",
                kind: .wrongType),
            Refusal(
                text: "[budget]\nenforce = 1",
                expected: "config/widgethost.toml:2: budget.enforce: expected true or false, got an integer",
                kind: .wrongType),
            Refusal(
                text: "[socket]\npath = 5",
                expected: "config/widgethost.toml:2: socket.path: expected a string, got an integer; write it in quotes, as in socket.path = \"/run/widgethost.sock\"",
                kind: .wrongType),
            Refusal(
                text: "[plugins]\npaths = \"/opt/plugins\"",
                expected: "config/widgethost.toml:2: plugins.paths: expected an array of paths, got a string; write plugins.paths = [\"/opt/plugins\"]",
                kind: .wrongType),
            Refusal(
                text: "[plugins]\npaths = [\n  \"/a\",\n  7,\n]",
                expected: "config/widgethost.toml:4: plugins.paths: expected an array of paths (strings), got an integer; quote each path",
                kind: .wrongType),
            Refusal(
                text: "[policy]\nmin_reload_interval = true",
                expected: "config/widgethost.toml:2: policy.min_reload_interval: expected a duration such as \"30s\" or \"5m\", got a boolean",
                kind: .wrongType),
            Refusal(
                text: "[limits]\nmemory = 3.5",
                expected: "config/widgethost.toml:2: limits.memory: expected a size such as \"4MiB\" or a number of bytes, got a float",
                kind: .wrongType),
            Refusal(
                text: "[log]\nlevel = 3",
                expected: "config/widgethost.toml:2: log.level: expected a string, got an integer; write it in quotes, as in log.level = \"info\"",
                kind: .wrongType),
            Refusal(
                text: "[control.app_uids]\ncom.birthdayreminders = [1000]",
                expected: "config/widgethost.toml:2: control.app_uids.com: expected an array of uids, got a table; quote a name that contains dots: \"com.birthdayreminders\" = [1000]",
                kind: .wrongType),
            Refusal(
                text: "[control.app_uids]\n\"com.example\" = 1000",
                expected: "config/widgethost.toml:2: control.app_uids.\"com.example\": expected an array of uids, got an integer; write \"com.example\" = [1000]",
                kind: .wrongType),
            Refusal(
                text: "[control.app_uids]\n\"com.example\" = [\"me\"]",
                expected: "config/widgethost.toml:2: control.app_uids.\"com.example\": expected a uid (an integer), got a string",
                kind: .wrongType),
            Refusal(
                text: "[budget.pinned]\nHome = \"12\"",
                expected: "config/widgethost.toml:2: budget.pinned.Home: expected an integer, got a string; write budget.pinned.Home = 12 without quotes",
                kind: .wrongType),
            Refusal(
                text: "[control]\nadmin_groups = \"widgethost\"",
                expected: "config/widgethost.toml:2: control.admin_groups: expected an array of group names or gids, got a string; write control.admin_groups = [\"widgethost\"]",
                kind: .wrongType),
            // Durations and sizes that mean nothing.
            Refusal(
                text: "[policy]\nmin_reload_interval = \"5 minutes\"",
                expected: "config/widgethost.toml:2: policy.min_reload_interval = \"5 minutes\" is not a duration; write a number and a unit (ms, s, m, h, d), as in \"30s\" or \"5m\"",
                kind: .invalidValue),
            Refusal(
                text: "[limits]\ntimeline_timeout = \"5\"",
                expected: "config/widgethost.toml:2: limits.timeline_timeout = \"5\" is not a duration; write a number and a unit (ms, s, m, h, d), as in \"30s\" or \"5m\"",
                kind: .invalidValue),
            Refusal(
                text: "[limits]\nmemory = \"30MB\"",
                expected: "config/widgethost.toml:2: limits.memory = \"30MB\" is not a size (sizes are 1024-based: MB → MiB); write a number of bytes, or a number and KiB, MiB or GiB, as in \"30MiB\"",
                kind: .invalidValue),
            Refusal(
                text: "[limits]\nmax_timeline_bytes = \"lots\"",
                expected: "config/widgethost.toml:2: limits.max_timeline_bytes = \"lots\" is not a size; write a number of bytes, or a number and KiB, MiB or GiB, as in \"30MiB\"",
                kind: .invalidValue),
            // Negative and zero.
            Refusal(
                text: "[budget]\nmin = 0",
                expected: "config/widgethost.toml:2: budget.min = 0 is below 1; set it to at least 1 (the default is 40)",
                kind: .outOfRange),
            Refusal(
                text: "[budget]\nfull_engagement_views = -3",
                expected: "config/widgethost.toml:2: budget.full_engagement_views = -3 is below 1; set it to at least 1 (the default is 12)",
                kind: .outOfRange),
            Refusal(
                text: "[control]\nmax_connections = 0",
                expected: "config/widgethost.toml:2: control.max_connections = 0 is below 1; set it to at least 1 (the default is 64)",
                kind: .outOfRange),
            Refusal(
                text: "[control]\nmax_batch = 0",
                expected: "config/widgethost.toml:2: control.max_batch = 0 is below 1; set it to at least 1 (the default is 100)",
                kind: .outOfRange),
            Refusal(
                text: "[limits]\ntimeline_timeout = \"0s\"",
                expected: "config/widgethost.toml:2: limits.timeline_timeout = \"0s\" must be above zero; the default is \"5s\"",
                kind: .outOfRange),
            Refusal(
                text: "[dashboard]\nlisten = \"0.0.0.0:8765\"",
                expected: "config/widgethost.toml:2: dashboard.listen = \"0.0.0.0:8765\": 0.0.0.0 is not a loopback address; the dashboard listens on this machine only, so use 127.0.0.1, ::1 or localhost",
                kind: .invalidValue),
            Refusal(
                text: "[dashboard]\nlisten = \"192.168.1.4:80\"",
                expected: "config/widgethost.toml:2: dashboard.listen = \"192.168.1.4:80\": 192.168.1.4 is not a loopback address; the dashboard listens on this machine only, so use 127.0.0.1, ::1 or localhost",
                kind: .invalidValue),
            Refusal(
                text: "[dashboard]\nlisten = \"8765\"",
                expected: "config/widgethost.toml:2: dashboard.listen = \"8765\" is not HOST:PORT; write it like \"127.0.0.1:8765\" (or \"\" for no dashboard)",
                kind: .invalidValue),
            Refusal(
                text: "[dashboard]\nlisten = \"127.0.0.1:70000\"",
                expected: "config/widgethost.toml:2: dashboard.listen = \"127.0.0.1:70000\": \"70000\" is not a port from 0 to 65535",
                kind: .outOfRange),
            Refusal(
                text: "[dashboard]\nlisten = 8765",
                expected: "config/widgethost.toml:2: dashboard.listen: expected a string, got an integer; write it in quotes, as in dashboard.listen = \"127.0.0.1:8765\"",
                kind: .wrongType),
            Refusal(
                text: "[limits]\nmax_view_nodes = 0",
                expected: "config/widgethost.toml:2: limits.max_view_nodes = 0 is below 1; set it to at least 1 (the default is 2000)",
                kind: .outOfRange),
            Refusal(
                text: "[limits]\nmax_view_depth = \"deep\"",
                expected: "config/widgethost.toml:2: limits.max_view_depth: expected an integer, got a string",
                kind: .wrongType),
            Refusal(
                text: "[limits]\nmemory_sample_interval = 0",
                expected: "config/widgethost.toml:2: limits.memory_sample_interval = 0 must be above zero; the default is \"50ms\"",
                kind: .outOfRange),
            Refusal(
                text: "[budget]\nlearning_period = \"-1h\"",
                expected: "config/widgethost.toml:2: budget.learning_period = \"-1h\" is negative; use 0s or more (the default is \"3d\")",
                kind: .outOfRange),
            Refusal(
                text: "[backoff]\ninitial = -5",
                expected: "config/widgethost.toml:2: backoff.initial = -5 is negative; use a duration above zero or more (the default is \"1m\")",
                kind: .outOfRange),
            Refusal(
                text: "[limits]\nmemory = 0",
                expected: "config/widgethost.toml:2: limits.memory = 0 must be above zero; the default is \"30MiB\"",
                kind: .outOfRange),
            Refusal(
                text: "[control]\nmax_line_bytes = \"-1KiB\"",
                expected: "config/widgethost.toml:2: control.max_line_bytes = \"-1KiB\" must be above zero; the default is \"1MiB\"",
                kind: .outOfRange),
            Refusal(
                text: "[budget.pinned]\nHome = 0",
                expected: "config/widgethost.toml:2: budget.pinned.Home = 0 is below 1; set it to at least 1 (the default is 40)",
                kind: .outOfRange),
            Refusal(
                text: "[control.app_uids]\n\"com.example\" = [-1]",
                expected: "config/widgethost.toml:2: control.app_uids.\"com.example\": -1 is not a valid uid",
                kind: .outOfRange),
            // Choices and names.
            Refusal(
                text: "[limits]\ncgroup = \"on\"",
                expected: "config/widgethost.toml:2: limits.cgroup = \"on\" is not a cgroup mode; use \"auto\" (a cgroup with memory.max per extension where a delegated cgroup v2 subtree allows it) or \"off\" (polling only)",
                kind: .invalidValue),
            Refusal(
                text: "[limits]\nsandbox = \"on\"",
                expected: "config/widgethost.toml:2: limits.sandbox = \"on\" is not a sandbox mode; use \"auto\" (every rule the kernel supports), \"required\" (refuse to start an extension when a rule cannot be applied) or \"off\" (no sandbox, for debugging)",
                kind: .invalidValue),
            Refusal(
                text: "[limits]\nopen_files = 3",
                expected: "config/widgethost.toml:2: limits.open_files = 3 is below 16; set it to at least 16 (the default is 256)",
                kind: .outOfRange),
            Refusal(
                text: "[log]\nlevel = \"verbose\"",
                expected: "config/widgethost.toml:2: log.level = \"verbose\" is not a log level; use one of \"trace\", \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\"",
                kind: .invalidValue),
            Refusal(
                text: "[control]\nadmin_groups = [\n  \"widgethost\",\n  \"wheel2\",\n]",
                expected: "config/widgethost.toml:4: control.admin_groups: there is no group named \"wheel2\" on this system; create it (systemd-sysusers, groupadd) or list an existing group name or gid",
                kind: .invalidValue),
            Refusal(
                text: "[control.app_uids]\n\"com.example\" = []",
                expected: "config/widgethost.toml:2: control.app_uids.\"com.example\" is empty, so no one could claim com.example; list the uids allowed to claim it, or remove the line to let anyone",
                kind: .invalidValue),
            Refusal(
                text: "[state]\npath = \"\"",
                expected: "config/widgethost.toml:2: state.path is empty; give a path such as \"/var/lib/widgethost\"",
                kind: .invalidValue),
            Refusal(
                text: "[socket]\npath = \"/\(String(repeating: "x", count: 120))\"",
                expected: "config/widgethost.toml:2: socket.path = \"/\(String(repeating: "x", count: 120))\" is 121 bytes long as \"/\(String(repeating: "x", count: 120))\", more than the 107 a Unix socket path may have; choose a shorter path",
                kind: .outOfRange),
            // Syntax errors come from TOMLKit, as file:line.
            Refusal(
                text: "[budget]\nmin = 40\nmin = 41",
                expected: "config/widgethost.toml:3: duplicate key budget.min (first defined at line 2); a key is defined once",
                kind: .syntax),
            // A date TOML reads as a date, where a string belongs.
            Refusal(
                text: "[log]\nlevel = 2026-02-15T00:00:00Z",
                expected: "config/widgethost.toml:2: log.level: expected a string, got an offset date-time; write it in quotes, as in log.level = \"2026-02-15T00:00:00Z\"",
                kind: .wrongType),
        ])
    func refusals(refusal expected: Refusal) {
        let error = refusal(expected.text)
        #expect(error?.description == expected.expected)
        #expect(error?.kind == expected.kind)
    }

    @Test("The first bad key in the file is the one reported")
    func firstErrorWins() {
        let error = refusal("[budget]\nmin = \"x\"\n[limits]\nmemory = \"lots\"")
        #expect(error?.line == 2)
    }

    @Test("Misspelt keys get a suggestion when one is close", arguments: [
        ("mni", "min"), ("max_entires", "max_entries"), ("MAX", "max"), ("learning-period", "learning_period"),
        ("enforced", "enforce"),
    ])
    func suggestions(typo: String, known: String) {
        let keys = DaemonSettings.sections.flatMap { $0.fields.map(\.name) }
        #expect(Suggestion.closest(to: typo, among: keys) == known)
    }

    @Test("No suggestion for a name far from every key")
    func noSuggestion() {
        let keys = DaemonSettings.sections.flatMap { $0.fields.map(\.name) }
        #expect(Suggestion.closest(to: "verbose", among: keys) == nil)
    }

    @Test("Admin groups: names are looked up, gids taken as they are")
    func adminGroups() throws {
        let configuration = try DaemonConfiguration.parse(
            text: "control.admin_groups = [\"adm\", 0, \"widgethost\", \"2000\"]", file: "config/widgethost.toml",
            groupID: testGroups)
        #expect(configuration.control.adminGroupIDs == [4, 0, 981, 2000])
    }

    @Test("The system's group database resolves names")
    func systemGroups() {
        #expect(SystemGroups.groupID(named: "root") == 0)
        #expect(SystemGroups.groupID(named: "no-such-group-widgethost-test") == nil)
    }
}
