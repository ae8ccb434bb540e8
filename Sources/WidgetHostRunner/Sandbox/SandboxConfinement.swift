import Foundation
import WidgetHostBundles
import WidgetHostCore

/// `limits.sandbox = auto | required`: every extension process starts as widgethost-sandbox,
/// which applies the profile to itself and execs the extension (docs/security.md).
public struct SandboxConfinement: LaunchConfinement {
    public var mode: SandboxMode
    public var limits: ExtensionLimits
    public var support: SandboxSupport
    /// widgethost-sandbox, or nil when it was not found (a refusal in both modes: the host
    /// was installed without it).
    public var shim: String?
    public var temporaryRoot: String

    public init(
        limits: ExtensionLimits, support: SandboxSupport = .probe(), shim: String? = SandboxShim.path,
        temporaryRoot: String = SandboxProfile.temporaryRoot
    ) {
        self.mode = limits.sandbox
        self.limits = limits
        self.support = support
        self.shim = shim
        self.temporaryRoot = temporaryRoot
    }

    /// Why no process can start confined here, naming the fix; nil when they can.
    public var refusal: String? {
        guard shim != nil else {
            return "\(SandboxShim.name) is not installed beside this program or in PREFIX/libexec/widgethost; reinstall widgethost, or set limits.sandbox = \"off\" to run extensions unconfined"
        }
        if mode == .required, let first = support.missing.first {
            return "limits.sandbox = \"required\" and \(first.rule) cannot be applied: \(first.reason); set limits.sandbox = \"auto\" to run with what this kernel offers"
        }
        return nil
    }

    public func confine(_ command: inout SpawnCommand, for launch: ExtensionLaunch) throws(SpawnError) {
        guard let shim, refusal == nil else {
            throw SpawnError(executable: launch.executable, reason: refusal ?? "\(SandboxShim.name) is missing")
        }
        let profile = try SandboxProfile(launch, limits: limits, temporaryRoot: temporaryRoot)
        command.environment["PATH"] = profile.path(from: command.environment["PATH"])
        command.environment["TMPDIR"] = profile.temporaryDirectory
        command.arguments =
            profile.arguments(abi: support.landlockABI, required: mode == .required) + ["--report-fd", "3", "--", command.executable]
            + command.arguments
        command.executable = shim
        command.reportsOnDescriptor3 = true
    }
}

extension ProcessSpawner {
    /// The spawner `limits.sandbox` asks for: the sandbox, or none with `off`.
    public static func sandboxed(_ limits: ExtensionLimits, support: SandboxSupport = .probe()) -> ProcessSpawner {
        switch limits.sandbox {
        case .off: ProcessSpawner()
        case .auto, .required: ProcessSpawner(confinement: SandboxConfinement(limits: limits, support: support))
        }
    }
}
