/// How one extension's processes are confined (docs/security.md): `limits.sandbox`, the rules
/// each process starts under with what they still allow it, and the rules this kernel or host
/// cannot apply with why. `extensions` and `status` show it.
public struct ExtensionSandbox: Sendable, Hashable, Codable {
    /// `limits.sandbox`: `auto`, `required` or `off`.
    public var mode: String
    /// The rules applied, in a fixed order, each with what it leaves the extension.
    public var applied: [SandboxRuleState]
    /// The rules not applied, each with why and what would provide it (with `off`: every rule).
    public var missing: [SandboxRuleState]
    /// Set when no process of this extension can start (`required` with a rule missing): the
    /// sentence a start fails with, naming the fix.
    public var refused: String?

    public init(mode: String, applied: [SandboxRuleState], missing: [SandboxRuleState], refused: String? = nil) {
        self.mode = mode
        self.applied = applied
        self.missing = missing
        self.refused = refused
    }
}

/// One rule of the sandbox and what it means for this extension.
public struct SandboxRuleState: Sendable, Hashable, Codable {
    /// `filesystem`, `tcp`, `scoping`, `seccomp`, `noNewPrivs`, `openFiles` or `processes`.
    public var rule: String
    /// Applied: what the rule leaves the extension. Missing: why it is not applied.
    public var detail: String

    public init(rule: String, detail: String) {
        self.rule = rule
        self.detail = detail
    }
}

/// An extension in `status`: its bundle id and its sandbox.
public struct ExtensionStatus: Sendable, Hashable, Codable {
    public var id: String
    public var sandbox: ExtensionSandbox

    public init(id: String, sandbox: ExtensionSandbox) {
        self.id = id
        self.sandbox = sandbox
    }
}
