import Foundation
import WidgetHostProtocol

/// The device's locale and text size (Apple: a locale change and a Dynamic Type or
/// accessibility change reload every widget, unbudgeted).
extension WidgetHost {
    public var device: DeviceSettings { host.device ?? DeviceSettings() }

    /// The environment every request carries: nil while the device has its defaults.
    var requestEnvironment: ViewEnvironment? { device.environment }

    mutating func changeDevice(_ settings: DeviceSettings, at now: Date) -> HostReply {
        if let problem = DeviceSettings.problem(locale: settings.locale, dynamicTypeSize: settings.dynamicTypeSize) {
            return .refused(.invalidDevice(problem))
        }
        var next = device
        var exemptions: [Exemption] = []
        if let locale = settings.locale, locale != next.locale {
            next.locale = locale
            exemptions.append(.localeChange)
        }
        if let size = settings.dynamicTypeSize, size != next.dynamicTypeSize {
            next.dynamicTypeSize = size
            exemptions.append(.accessibilityChange)
        }
        var outcomes: [WidgetReloadOutcome] = []
        if let exemption = exemptions.first {
            host.device = next
            step.hostChanged = true
            // A process started under the old locale keeps it in its environment: stop the idle ones.
            for ext in queues.keys.sorted() where queues[ext]?.isIdle == true && queues[ext]?.processAlive == true {
                queues[ext]?.processAlive = false
                queues[ext]?.idleSince = nil
                deadlines.schedule(.extension(ext), at: nil)
                step.effects.append(.terminate(extension: ext))
                emit(.extensionStopped(extension: ext, at: now, detail: "the device's settings changed"))
            }
            outcomes = records.keys.map { requestReload($0, cause: .host, exemption: exemption, at: now) }
        }
        return .device(DeviceResult(locale: next.locale, dynamicTypeSize: next.dynamicTypeSize, reloads: outcomes))
    }
}
