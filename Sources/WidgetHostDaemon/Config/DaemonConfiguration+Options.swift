import Logging
import WidgetHostConfiguration

extension DaemonConfiguration {
    /// What the daemon runtime takes.
    public var daemonOptions: DaemonOptions {
        var options = DaemonOptions(
            host: host, control: control, pluginPaths: pluginPaths, appGroupsPath: appGroupsPath,
            statePath: statePath)
        options.cgroup = cgroup
        options.dashboard = dashboard.listen
        return options
    }
}

extension Logger.Level {
    /// `log.level` as swift-log's level (the names are swift-log's).
    public init(_ level: LogLevel) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
