import Foundation
import WidgetHostProtocol

/// A command answered `.answerLater(id)`: what the extension's answer to request `id` is for.
enum ClientWait: Sendable, Hashable {
    /// `options`: the query's choices go back as they are.
    case options
    /// `addWidget` / `configureWidget` with entities only the query can vouch for: check them
    /// one parameter at a time, then finish the command. `token` is the id the client waits on.
    case entityCheck(PendingConfiguration, token: RequestID)
    /// `tap` / `tapControl`: the intent's outcome.
    case tap(toggledTo: Bool?, previous: Bool?)
}

/// A configuration waiting for the query to vouch for its entities.
struct PendingConfiguration: Sendable, Hashable {
    enum Command: Sendable, Hashable {
        case add(AddWidgetRequest, IntentValues)
        case configure(WidgetID, IntentValues)
    }

    var command: Command
    var kind: String
    var `extension`: String
    /// Entity parameters still to check, in order.
    var remaining: [String]

    var values: IntentValues {
        switch command {
        case .add(_, let values), .configure(_, let values): values
        }
    }
}

extension IntentOutcome {
    init(_ kind: ReloadResultKind) {
        switch kind {
        case .success: self = .succeeded
        case .timedOut: self = .timedOut
        case .memoryLimitExceeded: self = .memoryLimitExceeded
        case .crashed: self = .crashed
        case .protocolError, .invalidTimeline: self = .protocolError
        }
    }
}

/// What an extension said to a request whose answer someone waits for: the value, or why none came.
enum ExtensionAnswer<Value: Sendable>: Sendable {
    case answered(Value)
    case failed(String)
}
