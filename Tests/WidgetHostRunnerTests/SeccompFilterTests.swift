import Testing

@testable import WidgetHostRunner

/// The seccomp filter, run instruction by instruction (classic BPF, as the kernel runs it) over
/// every system call number: what it refuses, what it lets through, and how many instructions
/// a number costs (the kernel runs it for every number when it installs it).
@Suite("The seccomp filter's verdicts")
struct SeccompFilterTests {
    #if arch(x86_64)
        static let arch: UInt32 = 0xC000_003E  // AUDIT_ARCH_X86_64
        /// seccomp_filter.c's list, by number on x86_64: ptrace, process_vm_readv/writev, kcmp,
        /// pidfd_getfd, bpf, perf_event_open, userfaultfd, keyctl, add_key, request_key, mount,
        /// umount2, pivot_root, chroot, setns, unshare, the new mount API, mount_setattr,
        /// io_uring, modules, kexec, reboot, swap, acct, quotactl, syslog, vhangup, handles,
        /// fanotify_init, setsid, setpgid, iopl, ioperm.
        static let refused: Set<UInt32> = [
            101, 310, 311, 312, 438, 321, 298, 323, 250, 248, 249, 165, 166, 155, 161, 308, 272, 428, 429, 430, 431,
            432, 433, 442, 425, 426, 427, 175, 313, 176, 246, 320, 169, 167, 168, 163, 179, 103, 153, 304, 303, 300,
            112, 109, 172, 173,
        ]
        static let (clone3, clone, socket, socketpair): (UInt32, UInt32, UInt32, UInt32) = (435, 56, 41, 53)
    #endif

    static let allow: UInt32 = 0x7FFF_0000
    static let killProcess: UInt32 = 0x8000_0000
    static func errno(_ value: UInt32) -> UInt32 { 0x0005_0000 | value }

    /// Runs `program` on one call (struct seccomp_data: nr, arch, the first argument).
    static func run(_ program: [SeccompFilter.Instruction], nr: UInt32, arch: UInt32, argument: UInt64) -> (UInt32, Int)
    {
        var accumulator: UInt32 = 0
        var pc = 0
        var steps = 0
        while pc < program.count {
            let instruction = program[pc]
            steps += 1
            switch instruction.code {
            case 0x20:  // BPF_LD | BPF_W | BPF_ABS
                switch instruction.k {
                case 0: accumulator = nr
                case 4: accumulator = arch
                case 16: accumulator = UInt32(truncatingIfNeeded: argument)  // args[0], little-endian low word
                default: Issue.record("load from offset \(instruction.k)"); return (0, steps)
                }
                pc += 1
            case 0x06: return (instruction.k, steps)  // BPF_RET | BPF_K
            case 0x15: pc += 1 + Int(accumulator == instruction.k ? instruction.jt : instruction.jf)  // JEQ
            case 0x35: pc += 1 + Int(accumulator >= instruction.k ? instruction.jt : instruction.jf)  // JGE
            case 0x45: pc += 1 + Int(accumulator & instruction.k != 0 ? instruction.jt : instruction.jf)  // JSET
            default: Issue.record("opcode \(instruction.code)"); return (0, steps)
            }
        }
        Issue.record("ran off the end of the program")
        return (0, steps)
    }

    #if arch(x86_64)
        @Test("Every system call number gets the listed verdict, with and without the network entitlement", arguments: [false, true])
        func everyNumber(network: Bool) throws {
            let program = try #require(SeccompFilter.instructions(network: network))
            let namespaces: UInt64 = 0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000 | 0x4000_0000
            let families: [UInt64] = network ? [1, 2, 10, 16] : [1]
            var steps = 0
            for nr in UInt32(0)..<1024 {
                for argument: UInt64 in [0, 1, 2, 10, 16, 17, 0x11, 0x0002_0000, 0x1000_0000, 0x7E02_0000, 0xFFFF_FFFF] {
                    let (verdict, taken) = Self.run(program, nr: nr, arch: Self.arch, argument: argument)
                    if argument == 0 { steps += taken }
                    let expected: UInt32 =
                        if Self.refused.contains(nr) { Self.errno(1) }  // EPERM
                        else if nr == Self.clone3 { Self.errno(38) }  // ENOSYS: glibc falls back to clone
                        else if nr == Self.clone { argument & namespaces != 0 ? Self.errno(1) : Self.allow }
                        else if nr == Self.socket || nr == Self.socketpair {
                            families.contains(argument) ? Self.allow : Self.errno(97)  // EAFNOSUPPORT
                        } else { Self.allow }
                    #expect(verdict == expected, "nr \(nr), first argument \(argument)")
                }
            }
            // x32's numbers, another architecture's calls.
            #expect(Self.run(program, nr: 0x4000_0000 + 101, arch: Self.arch, argument: 0).0 == Self.errno(1))
            #expect(Self.run(program, nr: 0x4000_0000, arch: Self.arch, argument: 0).0 == Self.errno(1))
            #expect(Self.run(program, nr: 0, arch: 0x4000_0003 /* i386 */, argument: 0).0 == Self.killProcess)
            // A binary search over intervals: ~10 instructions a number on average, not a comparison
            // per rule (54); one return per verdict, not one per rule (the kernel JIT-compiles all
            // of it at every confined spawn): 71 instructions, 74 with the network's families.
            #expect(Double(steps) / 1024 < 11, "\(Double(steps) / 1024) instructions a number")
            #expect(program.count <= (network ? 74 : 71), "\(program.count) instructions")
        }
    #endif
}
