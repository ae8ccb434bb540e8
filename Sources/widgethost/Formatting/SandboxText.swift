import WidgetHostProtocol

/// An extension's sandbox in one line (`extensions`, `status`): the mode, the rules applied,
/// the rules missing with why, or why none of its processes can start.
enum SandboxText {
    static func summary(_ sandbox: ExtensionSandbox) -> String {
        if sandbox.mode == "off" { return "off: unconfined, with the host's reach (limits.sandbox = \"off\")" }
        if let refused = sandbox.refused { return "\(sandbox.mode): every start refused: \(refused)" }
        var text = "\(sandbox.mode): " + (sandbox.applied.isEmpty ? "nothing applied" : sandbox.applied.map(\.rule).joined(separator: ", "))
        if !sandbox.missing.isEmpty {
            text += "; missing: " + sandbox.missing.map { "\($0.rule) (\($0.detail))" }.joined(separator: "; ")
        }
        return text
    }

    /// `status`'s section after the widgets: one line per extension.
    static func section(_ extensions: [ExtensionStatus]?) -> String? {
        guard let extensions, !extensions.isEmpty else { return nil }
        var table = Table(indent: "  ")
        for ext in extensions { table.append([ext.id, summary(ext.sandbox)]) }
        return "Sandbox:\n" + table.rendered
    }
}
