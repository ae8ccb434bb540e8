import CSpawn

/// The seccomp filter a confined extension gets (`Sources/CSpawn/seccomp_filter.c`), read back
/// as data, so that tests can run it over every system call number (`SeccompFilterTests`).
enum SeccompFilter {
    struct Instruction: Sendable, Equatable {
        var code: UInt16
        var jt: UInt8
        var jf: UInt8
        var k: UInt32
    }

    /// The program for `network` (the entitlement), or nil where the architecture has none.
    static func instructions(network: Bool) -> [Instruction]? {
        var code = [sock_filter](repeating: sock_filter(), count: 512)
        let count = code.withUnsafeMutableBufferPointer {
            widgethost_seccomp_filter(network ? 1 : 0, $0.baseAddress, CInt($0.count))
        }
        guard count > 0 else { return nil }
        return code.prefix(Int(count)).map { Instruction(code: $0.code, jt: $0.jt, jf: $0.jf, k: $0.k) }
    }
}
