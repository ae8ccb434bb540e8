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
        #expect(configuration.host.limits.sandbox == .auto)
        #expect(configuration.host.limits.processes == 32)
        #expect(configuration.host.limits.openFiles == 256)
        #expect(configuration.logLevel == .info)
        #expect(configuration.dashboard.listen == nil)
        #expect(configuration.host == HostConfiguration())
    }

    @Test("The dev profile puts everything under the working directory and enforces the budget")
    func devProfile() throws {
        let configuration = try DaemonConfiguration.load(
            contentsOf: "\(configDirectory)/dev.toml", currentDirectory: "/home/dev/widgethost", groupID: testGroups)
        #expect(configuration.socketPath == "/home/dev/widgethost/.run/widgethost.sock")
        #expect(configuration.statePath == "/home/dev/widgethost/.run/state")
        #expect(configuration.pluginPaths == ["/home/dev/widgethost/.build/examples"])
        #expect(configuration.appGroupsPath == "/home/dev/widgethost/.run/AppGroups")
        #expect(configuration.host.budget.enforce)
        #expect(configuration.dashboard.listen == .init(host: "127.0.0.1", port: 8765))
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
            max_batch = 7
            idle_timeout = "2m"
            [control.app_uids]
            "com.birthdayreminders" = [1000, 1001]
            [log]
            level = "debug"
            [dashboard]
            listen = "[::1]:0"
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
            max_view_nodes = 10
            max_view_depth = 8
            timeline_timeout = "2s"
            placeholder_timeout = "250ms"
            intent_timeout = "3s"
            memory = "8MiB"
            memory_sample_interval = 0.02
            sandbox = "required"
            processes = 8
            open_files = 64
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
        #expect(configuration.control.maxBatch == 7)
        #expect(configuration.control.idleTimeout == 120)
        #expect(configuration.control.appUIDs == ["com.birthdayreminders": [1000, 1001]])
        #expect(configuration.logLevel == .debug)
        #expect(configuration.dashboard.listen == .init(host: "::1", port: 0))
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
        #expect(host.limits.maxViewNodes == 10)
        #expect(host.limits.maxViewDepth == 8)
        #expect(host.limits.timelineTimeout == 2)
        #expect(host.limits.placeholderTimeout == 0.25)
        #expect(host.limits.intentTimeout == 3)
        #expect(host.limits.memory == 8 * 1024 * 1024)
        #expect(host.limits.memorySampleInterval == 0.02)
        #expect(configuration.cgroup == .off)
        #expect(host.limits.sandbox == .required)
        #expect(host.limits.processes == 8)
        #expect(host.limits.openFiles == 64)
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
                "day.toml:2: unknown table host.socket; known tables: budget, policy, limits, backoff, extension, activities"
            ),
            (
                "[host]\nlimits.cgroup = \"off\"",
                "day.toml:2: unknown key host.limits.cgroup; known keys in [host.limits]: warn_entries, max_entries, max_timeline_bytes, max_view_nodes, max_view_depth, timeline_timeout, placeholder_timeout, intent_timeout, memory, memory_sample_interval, sandbox, processes, open_files"
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
