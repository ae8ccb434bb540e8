import Logging
import Testing
import WidgetHostConfiguration
@testable import WidgetHostDaemon

@Suite("widgethost.toml's settings in the daemon")
struct DaemonConfigurationOptionsTests {
    @Test("The daemon's options carry the configuration")
    func daemonOptions() throws {
        let configuration = try DaemonConfiguration.parse(
            text: "socket.path = \"/tmp/x.sock\"\nbudget.min = 50\nplugins.paths = [\"/p\"]\nlimits.cgroup = \"off\"",
            file: "config/widgethost.toml", currentDirectory: "/work", groupID: { _ in nil })
        let options = configuration.daemonOptions
        #expect(options.control.socketPath == "/tmp/x.sock")
        #expect(options.host.budget.min == 50)
        #expect(options.pluginPaths == ["/p"])
        #expect(options.statePath == "/var/lib/widgethost")
        #expect(options.appGroupsPath == "/var/lib/widgethost/AppGroups")
        #expect(options.cgroup == .off)
    }

    @Test("Each log.level is swift-log's level of the same name", arguments: LogLevel.allCases)
    func logLevels(level: LogLevel) {
        #expect(Logger.Level(level).rawValue == level.rawValue)
    }

    @Test("Every swift-log level can be set in log.level")
    func everyLoggerLevel() {
        #expect(Logger.Level.allCases.map(\.rawValue) == LogLevel.allCases.map(\.rawValue))
    }
}
