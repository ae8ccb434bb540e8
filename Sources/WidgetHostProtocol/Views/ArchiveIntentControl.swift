import Foundation

/// A `Button(intent:)` or `Toggle(isOn:intent:)` in an archive: what a tap runs and what it shows.
public struct ArchiveIntentControl: Sendable, Hashable, Codable {
    /// How `tap` names it: `b1`, `b2`, … in reading order, given by the SDK.
    public var id: String
    public var intent: IntentInvocation
    /// A toggle's state as the entry drew it; nil for a button.
    public var isOn: Bool?
    public var label: ViewNode

    public init(id: String, intent: IntentInvocation, isOn: Bool? = nil, label: ViewNode) {
        self.id = id
        self.intent = intent
        self.isOn = isOn
        self.label = label
    }

    private enum CodingKeys: String, CodingKey { case id, intent, isOn, label }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        intent = try container.decode(IntentInvocation.self, forKey: .intent)
        isOn = container.lenient(Bool.self, .isOn)
        label = container.lenient(ViewNode.self, .label) ?? ViewNode(.empty)
    }
}

extension ViewNode {
    /// Every button and toggle in the tree, in reading order.
    public var intentControls: [(kind: String, control: ArchiveIntentControl)] {
        var found: [(String, ArchiveIntentControl)] = []
        switch content {
        case .button(let control): found.append(("button", control))
        case .toggle(let control): found.append(("toggle", control))
        default: break
        }
        for child in childNodes { found += child.intentControls }
        return found
    }
}
