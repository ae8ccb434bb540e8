import Logging
import WidgetHostCore
import WidgetHostRunner

extension Daemon {
    /// Says once, at start, how extensions are confined: what applies and what this kernel
    /// lacks (`auto`), what will be refused (`required`), or loudly that nothing is (`off`).
    static func announceSandbox(_ limits: ExtensionLimits, support: SandboxSupport = .probe(), logger: Logger) {
        switch limits.sandbox {
        case .off:
            logger.warning(
                "limits.sandbox = \"off\": extensions run unconfined, with this daemon's reach (its state database, every app group, the network, signals to the daemon); use it for debugging only")
        case .auto, .required:
            let line = "sandbox (limits.sandbox = \"\(limits.sandbox.rawValue)\"): \(support.summary)"
            if support.missing.isEmpty {
                logger.info("\(line)")
            } else if limits.sandbox == .required {
                logger.error(
                    "\(line); every extension will be refused until the kernel offers them or limits.sandbox = \"auto\"")
            } else {
                logger.notice("\(line)")
            }
        }
    }
}
