import Foundation

/// How the control socket is served and who may do what on it (`socket.path` and `[control]`).
public struct ControlSettings: Sendable, Hashable {
    public var socketPath: String
    /// Peers in these groups (besides root and the daemon's own uid) may call admin methods.
    public var adminGroupIDs: [UInt32] = []
    /// An app id pinned to the uids allowed to claim it; apps not listed may be claimed by anyone.
    public var appUIDs: [String: [UInt32]] = [:]
    public var maxConnections = 64
    public var maxLineBytes = 1024 * 1024
    /// Members of one JSON-RPC batch; a larger batch is refused whole with -32600.
    public var maxBatch = 100
    public var idleTimeout: TimeInterval = 60

    public init(socketPath: String) {
        self.socketPath = socketPath
    }
}
