/// Who is on the other end of a connection (`SO_PEERCRED`, `SO_PEERGROUPS`).
struct Peer: Sendable, Hashable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32
    /// Supplementary groups, ascending as the kernel keeps them.
    var groups: [UInt32] = []
}
