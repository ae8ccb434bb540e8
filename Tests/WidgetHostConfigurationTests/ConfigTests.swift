import Foundation
import Testing
import WidgetHostCore
@testable import WidgetHostConfiguration

/// The repository's `config/` directory.
private let configDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("config").path

/// Group names a test system is assumed to have.
private let testGroups: @Sendable (String) -> UInt32? = { ["widgethost": 981, "adm": 4][$0] }

private func parse(_ text: String, currentDirectory: String = "/work") throws(ConfigError) -> DaemonConfiguration {
    try DaemonConfiguration.parse(
        text: text, file: "config/widgethost.toml", currentDirectory: currentDirectory, groupID: testGroups)
}

private func refusal(_ text: String) -> ConfigError? {
    do {
        _ = try parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite("The config file")
struct ConfigTests {
    // MARK: - The shipped files

    @Test("config/widgethost.toml sets every key to its default")
    func defaultsFile() throws {
        let configuration = try DaemonConfiguration.load(
            contentsOf: "\(configDirectory)/widgethost.toml", currentDirectory: "/", groupID: testGroups)
        #expect(configuration == DaemonConfiguration())
        #expect(configuration.host == HostConfiguration.default)
    }

    @Test("config/widgethost.toml lists every key widgethostd knows")
    func defaultsFileIsComplete() throws {
        let text = try String(contentsOfFile: "\(configDirectory)/widgethost.toml", encoding: .utf8)
        let document = try ConfigDocument(parsing: text, file: "widgethost.toml")
        for section in DaemonSettings.sections {
            for field in section.fields {
                #expect(document.root[path: [section.name, field.name]] != nil, "\(section.name).\(field.name)")
            }
        }
    }

    @Test("The defaults are DESIGN.md's")
    func defaults() {
        let configuration = DaemonConfiguration()
        #expect(configuration.socketPath == "/run/widgethost.sock")
        #expect(configuration.statePath == "/var/lib/widgethost")
        #expect(configuration.pluginPaths == ["/usr/lib/widgethost/plugins", "/etc/widgethost/plugins.d"])
        #expect(configuration.appGroupsPath == "/var/lib/widgethost/AppGroups")
        #expect(configuration.control.adminGroupIDs == [])
        #expect(configuration.control.appUIDs == [:])
        #expect(configuration.control.maxConnections == 64)
        #expect(configuration.control.maxLineBytes == 1024 * 1024)
        #expect(configuration.control.idleTimeout == 60)
        #expect(configuration.cgroup == .auto)
        #expect(configuration.logLevel == .info)
        #expect(configuration.host == HostConfiguration())
    }

    @Test("The dev profile puts everything under the working directory and enforces the budget")
    func devProfile() throws {
        let configuration = try DaemonConfiguration.load(
            contentsOf: "\(configDirectory)/dev.toml", currentDirectory: "/home/dev/widgethost", groupID: testGroups)
        #expect(configuration.socketPath == "/home/dev/widgethost/.run/widgethost.sock")
        #expect(configuration.statePath == "/home/dev/widgethost/.run/state")
        #expect(configuration.pluginPaths == ["/home/dev/widgethost/.build/plugins"])
        #expect(configuration.appGroupsPath == "/home/dev/widgethost/.run/AppGroups")
        #expect(configuration.host.budget.enforce)
        #expect(configuration.host == HostConfiguration())
    }

    @Test("The dev profile's paths follow the current directory at load time")
    func devProfileUsesTheCurrentDirectory() throws {
        let configuration = try DaemonConfiguration.load(contentsOf: "\(configDirectory)/dev.toml", groupID: testGroups)
        let here = FileManager.default.currentDirectoryPath
        #expect(configuration.socketPath == ConfigPath.resolve(".run/widgethost.sock", in: here))
        #expect(configuration.socketPath.hasPrefix("/"))
    }

    // MARK: - Every key

    @Test("Every key maps onto the configuration")
    func everyKey() throws {
        let configuration = try parse(
            """
            [socket]
            path = "/tmp/w.sock"
            [state]
            path = "state"
            [plugins]
            paths = ["/opt/plugins", "./more/../extra"]
            [app_groups]
            path = "/srv/groups"
            [control]
            admin_groups = ["widgethost", 27, "1001"]
            max_connections = 8
            max_line_bytes = "64KiB"
            idle_timeout = "2m"
            [control.app_uids]
            "com.birthdayreminders" = [1000, 1001]
            [log]
            level = "debug"
            [budget]
            min = 10
            max = 20
            full_engagement_views = 4
            learning_period = "24h"
            enforce = false
            pinned = { BirthdayHomeWidget = 5, "Lock Screen" = 90 }
            [policy]
            min_reload_interval = "12m"
            [limits]
            warn_entries = 10
            max_entries = 20
            max_timeline_bytes = 1000
            timeline_timeout = "2s"
            placeholder_timeout = "250ms"
            memory = "8MiB"
            memory_sample_interval = 0.02
            cgroup = "off"
            [backoff]
            initial = 10
            maximum = "40s"
            [extension]
            idle_timeout = "2m"
            """, currentDirectory: "/home/me")
        #expect(configuration.socketPath == "/tmp/w.sock")
        #expect(configuration.statePath == "/home/me/state")
        #expect(configuration.pluginPaths == ["/opt/plugins", "/home/me/extra"])
        #expect(configuration.appGroupsPath == "/srv/groups")
        #expect(configuration.control.adminGroupIDs == [981, 27, 1001])
        #expect(configuration.control.maxConnections == 8)
        #expect(configuration.control.maxLineBytes == 64 * 1024)
        #expect(configuration.control.idleTimeout == 120)
        #expect(configuration.control.appUIDs == ["com.birthdayreminders": [1000, 1001]])
        #expect(configuration.logLevel == .debug)
        let host = configuration.host
        #expect(host.budget.min == 10)
        #expect(host.budget.max == 20)
        #expect(host.budget.fullEngagementViews == 4)
        #expect(host.budget.learningPeriod == 24 * 3600)
        #expect(host.budget.enforce == false)
        #expect(host.budget.pinned == ["BirthdayHomeWidget": 5, "Lock Screen": 90])
        #expect(host.policy.minReloadInterval == 12 * 60)
        #expect(host.limits.warnEntries == 10)
        #expect(host.limits.maxEntries == 20)
        #expect(host.limits.maxTimelineBytes == 1000)
        #expect(host.limits.timelineTimeout == 2)
        #expect(host.limits.placeholderTimeout == 0.25)
        #expect(host.limits.memory == 8 * 1024 * 1024)
        #expect(host.limits.memorySampleInterval == 0.02)
        #expect(configuration.cgroup == .off)
        #expect(host.backoff.initial == 10)
        #expect(host.backoff.maximum == 40)
        #expect(host.extensionLifecycle.idleTimeout == 120)
    }

    @Test("An empty file, or dotted keys at the top, are fine too")
    func shapes() throws {
        #expect(try parse("") == DaemonConfiguration())
        #expect(try parse("# nothing\n") == DaemonConfiguration())
        let configuration = try parse("budget.min = 45\nlimits.memory = 1048576\nlog = { level = \"error\" }")
        #expect(configuration.host.budget.min == 45)
        #expect(configuration.host.limits.memory == 1024 * 1024)
        #expect(configuration.logLevel == .error)
    }

    @Test("Zero is allowed where it means “none”: learning period, minimum interval, idle timeout")
    func zeroWhereMeaningful() throws {
        let configuration = try parse(
            "budget.learning_period = \"0s\"\npolicy.min_reload_interval = 0\nextension.idle_timeout = \"0s\"")
        #expect(configuration.host.budget.learningPeriod == 0)
        #expect(configuration.host.policy.minReloadInterval == 0)
        #expect(configuration.host.extensionLifecycle.idleTimeout == 0)
    }

    // MARK: - Refusals

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
                expected: "config/widgethost.toml:2: unknown key limits.max-entries; did you mean limits.max_entries? Known keys in [limits]: warn_entries, max_entries, max_timeline_bytes, timeline_timeout, placeholder_timeout, memory, memory_sample_interval, cgroup",
                kind: .unknownKey),
            Refusal(
                text: "\n[budgets]\nmin = 40",
                expected: "config/widgethost.toml:2: unknown table budgets; did you mean [budget]? Known tables: socket, state, plugins, app_groups, control, log, budget, policy, limits, backoff, extension",
                kind: .unknownKey),
            Refusal(
                text: "verbose = true",
                expected: "config/widgethost.toml:1: unknown key verbose; known tables: socket, state, plugins, app_groups, control, log, budget, policy, limits, backoff, extension",
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
                text: "[limits]\ntimeline_timeout = \"0s\"",
                expected: "config/widgethost.toml:2: limits.timeline_timeout = \"0s\" must be above zero; the default is \"5s\"",
                kind: .outOfRange),
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
        let configuration = try parse("control.admin_groups = [\"adm\", 0, \"widgethost\", \"2000\"]")
        #expect(configuration.control.adminGroupIDs == [4, 0, 981, 2000])
    }

    @Test("The system's group database resolves names")
    func systemGroups() {
        #expect(SystemGroups.groupID(named: "root") == 0)
        #expect(SystemGroups.groupID(named: "no-such-group-widgethost-test") == nil)
    }

    // MARK: - Files

    @Test("A missing file says so and how to fix it")
    func missingFile() {
        do {
            _ = try DaemonConfiguration.load(contentsOf: "/nonexistent/widgethost.toml")
            Issue.record("no error")
        } catch {
            #expect(error.kind == .fileNotFound)
            #expect(
                error.description
                    == "/nonexistent/widgethost.toml: no such file; check the path given to --config, or copy config/widgethost.toml there")
        }
    }

    @Test("A directory or a file that is not UTF-8 is refused")
    func unreadableFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: ConfigError(kind: .unreadable, file: directory.path, message: "is a directory; give the path of a .toml file")) {
            try DaemonConfiguration.load(contentsOf: directory.path)
        }
        let binary = directory.appendingPathComponent("bad.toml")
        try Data([0x61, 0x20, 0x3D, 0x20, 0xFF, 0xFE]).write(to: binary)
        #expect(throws: ConfigError(kind: .unreadable, file: binary.path, message: "is not UTF-8 text; save it as UTF-8")) {
            try DaemonConfiguration.load(contentsOf: binary.path)
        }
        let good = directory.appendingPathComponent("good.toml")
        try "budget.min = 41\n".write(to: good, atomically: true, encoding: .utf8)
        #expect(try DaemonConfiguration.load(contentsOf: good.path).host.budget.min == 41)
    }

    // MARK: - Paths and overrides

    @Test(
        "Relative paths are resolved against the current directory",
        arguments: [
            (".run/state", "/home/dev/w", "/home/dev/w/.run/state"),
            ("./state", "/home/dev/w", "/home/dev/w/state"),
            ("../shared/plugins", "/home/dev/w", "/home/dev/shared/plugins"),
            ("/var/lib//widgethost/", "/home/dev/w", "/var/lib/widgethost"),
            ("a/./b/../c", "/", "/a/c"),
        ])
    func relativePaths(path: String, directory: String, resolved: String) {
        #expect(ConfigPath.resolve(path, in: directory) == resolved)
    }

    @Test("Flags override the file: socket, state, plugin paths, app groups")
    func overrides() throws {
        let file = try parse("socket.path = \"/run/a.sock\"\nbudget.min = 50")
        let overridden = file.applying(
            ConfigOverrides(
                socketPath: "x.sock", statePath: "/srv/state", pluginPaths: ["p1", "/p2"], appGroupsPath: "groups"),
            currentDirectory: "/home/me")
        #expect(overridden.socketPath == "/home/me/x.sock")
        #expect(overridden.statePath == "/srv/state")
        #expect(overridden.pluginPaths == ["/home/me/p1", "/p2"])
        #expect(overridden.appGroupsPath == "/home/me/groups")
        #expect(overridden.host.budget.min == 50)
        #expect(file.applying(ConfigOverrides()) == file)
    }

    // MARK: - The harness's [host] table

    @Test("A scenario's [host] table sets rule keys with the same checks")
    func hostRules() throws {
        let document = try ConfigDocument(
            parsing: "[host]\nbudget = { min = 70, max = 70 }\npolicy.min_reload_interval = \"12m\"",
            file: "day.toml")
        let host = try HostConfiguration.parse(try #require(document["host"]?.table), file: "day.toml", prefix: "host.")
        #expect(host.budget.min == 70)
        #expect(host.budget.max == 70)
        #expect(host.policy.minReloadInterval == 720)
        #expect(host.limits == ExtensionLimits())
    }

    @Test(
        "A scenario's [host] table refuses daemon keys and bad values, naming host.…",
        arguments: [
            (
                "[host]\nbudget = { min = 90, max = 70 }",
                "day.toml:2: host.budget.min = 90 is above host.budget.max = 70; set host.budget.min ≤ host.budget.max"
            ),
            (
                "[host]\nsocket.path = \"/x\"",
                "day.toml:2: unknown table host.socket; known tables: budget, policy, limits, backoff, extension"
            ),
            (
                "[host]\nlimits.cgroup = \"off\"",
                "day.toml:2: unknown key host.limits.cgroup; known keys in [host.limits]: warn_entries, max_entries, max_timeline_bytes, timeline_timeout, placeholder_timeout, memory, memory_sample_interval"
            ),
        ])
    func hostRuleRefusals(text: String, expected: String) throws {
        let document = try ConfigDocument(parsing: text, file: "day.toml")
        let table = try #require(document["host"]?.table)
        #expect(throws: ConfigError.self) { try HostConfiguration.parse(table, file: "day.toml", prefix: "host.") }
        do {
            _ = try HostConfiguration.parse(table, file: "day.toml", prefix: "host.")
        } catch {
            #expect(error.description == expected)
        }
    }
}

@Suite("Durations and sizes in the config")
struct ConfigQuantityTests {
    @Test(
        "Durations with units, and combinations",
        arguments: [
            ("500ms", 0.5), ("30s", 30), ("10m", 600), ("4h", 14_400), ("7d", 604_800), ("1h30m", 5400),
            ("1.5s", 1.5), ("0s", 0), ("2m30s", 150), ("-5s", -5), ("72h", 259_200),
        ] as [(String, Double)])
    func durations(text: String, seconds: Double) {
        #expect(DurationText.parse(text) == seconds)
    }

    @Test(
        "Strings that are not durations",
        arguments: ["", "5", "5 minutes", "5min", "m", "1.s", ".5s", "5sec", "1h 30m", "-", "3w", "5S"])
    func notDurations(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test(
        "Durations print in their shortest exact unit",
        arguments: [
            (0.05, "50ms"), (1, "1s"), (30, "30s"), (60, "1m"), (90, "90s"), (300, "5m"), (3600, "1h"),
            (5400, "90m"), (86_400, "1d"), (259_200, "3d"), (0, "0s"), (-60, "-1m"), (0.0005, "0.0005s"),
        ] as [(Double, String)])
    func durationFormat(seconds: Double, text: String) {
        #expect(DurationText.format(seconds) == text)
        if seconds >= 0.001 || seconds == 0 { #expect(DurationText.parse(text) == seconds) }
    }

    @Test(
        "Sizes in bytes or with a 1024-based unit",
        arguments: [
            ("1024", 1024), ("512KiB", 524_288), ("4MiB", 4_194_304), ("30MiB", 31_457_280), ("1GiB", 1_073_741_824),
            ("100B", 100), ("0.5MiB", 524_288), ("-1KiB", -1024),
        ] as [(String, Int)])
    func sizes(text: String, bytes: Int) {
        #expect(SizeText.parse(text) == bytes)
    }

    @Test("Strings that are not sizes", arguments: ["", "30MB", "4 MiB", "MiB", "1.MiB", "4mib", "lots", "99999999TiB"])
    func notSizes(text: String) {
        #expect(SizeText.parse(text) == nil)
    }

    @Test(
        "Sizes print in their largest exact unit",
        arguments: [(4_194_304, "4MiB"), (31_457_280, "30MiB"), (1000, "1000B"), (524_288, "512KiB"), (1536, "1536B")]
            as [(Int, String)])
    func sizeFormat(bytes: Int, text: String) {
        #expect(SizeText.format(bytes) == text)
        #expect(SizeText.parse(text) == bytes)
    }

    @Test("A duration may be a bare number of seconds, integer or float")
    func bareSeconds() throws {
        let configuration = try parse("limits.timeline_timeout = 7\nlimits.placeholder_timeout = 0.5")
        #expect(configuration.host.limits.timelineTimeout == 7)
        #expect(configuration.host.limits.placeholderTimeout == 0.5)
    }
}
