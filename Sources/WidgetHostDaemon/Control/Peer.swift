/// Who is on the other end of a connection (`SO_PEERCRED`).
struct Peer: Sendable, Hashable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32
}
