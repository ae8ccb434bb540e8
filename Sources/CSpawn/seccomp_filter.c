#define _GNU_SOURCE
#include "seccomp_filter.h"
#include "CSpawn.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define SANDBOX_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SANDBOX_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define SANDBOX_AUDIT_ARCH AUDIT_ARCH_RISCV64
#endif

#define LOAD(offset) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (offset))
#define RETURN(value) BPF_STMT(BPF_RET | BPF_K, (value))
#define ERRNO(value) (SECCOMP_RET_ERRNO | ((value) & SECCOMP_RET_DATA))

static void emit(struct seccomp_program *program, struct sock_filter instruction) {
    if (program->length < SECCOMP_FILTER_MAX) program->code[program->length++] = instruction;
}

static const int refused_syscalls[] = {
    __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_kcmp,
#ifdef __NR_pidfd_getfd
    __NR_pidfd_getfd,
#endif
    __NR_bpf, __NR_perf_event_open, __NR_userfaultfd, __NR_keyctl, __NR_add_key, __NR_request_key,
    __NR_mount, __NR_umount2, __NR_pivot_root, __NR_chroot, __NR_setns, __NR_unshare,
#ifdef __NR_open_tree
    __NR_open_tree, __NR_move_mount, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
#endif
#ifdef __NR_mount_setattr
    __NR_mount_setattr,
#endif
#ifdef __NR_io_uring_setup
    __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#endif
    __NR_init_module, __NR_finit_module, __NR_delete_module, __NR_kexec_load,
#ifdef __NR_kexec_file_load
    __NR_kexec_file_load,
#endif
    __NR_reboot, __NR_swapon, __NR_swapoff, __NR_acct, __NR_quotactl, __NR_syslog, __NR_vhangup,
    __NR_open_by_handle_at, __NR_name_to_handle_at, __NR_fanotify_init,
    // The extension's process group is how the control socket knows a peer is an extension
    // (docs/security.md): it may not leave it.
    __NR_setsid, __NR_setpgid,
#ifdef __NR_iopl
    __NR_iopl, __NR_ioperm,
#endif
};

// The filter is a binary search over the number line cut into intervals of one verdict each
// (a run of refused numbers is one interval), whose leaves jump to one shared block per
// verdict. The kernel makes the filter for every confined spawn, between the clone and the
// extension's execve: it JIT-compiles the program and runs it once for every system call
// number (to cache which numbers are always allowed), so both its length and its depth are
// paid at each start. A chain of ~60 comparisons cost ~130 µs; a search over the rules with a
// return of its own per rule (150 instructions, 12 a number) ~63 µs; this one (71, 10 a
// number) ~48 µs (the rest is the kernel's own: allocating and mapping the JIT's code).
enum verdict { VERDICT_ALLOW, VERDICT_EPERM, VERDICT_ENOSYS, VERDICT_CLONE, VERDICT_SOCKET, VERDICTS };

/// Numbers from `start` up to the next interval's start get `verdict`.
struct interval {
    uint32_t start;
    enum verdict verdict;
};

#define INTERVALS_MAX (2 * (sizeof refused_syscalls / sizeof refused_syscalls[0] + 4) + 2)

/// Sets `[first, last]` to `verdict` in `intervals` (sorted by start, covering every number from 0).
static void set_verdict(struct interval *intervals, unsigned *count, uint32_t first, uint32_t last, enum verdict verdict) {
    // The verdict after `last`, before anything changes.
    enum verdict after = VERDICT_ALLOW;
    for (unsigned i = 0; i < *count && intervals[i].start <= last; i++) after = intervals[i].verdict;
    struct interval merged[INTERVALS_MAX + 2];
    unsigned length = 0;
    unsigned i = 0;
    for (; i < *count && intervals[i].start < first; i++) merged[length++] = intervals[i];
    merged[length++] = (struct interval){first, verdict};
    while (i < *count && intervals[i].start <= last) i++;
    if (last != UINT32_MAX && (i == *count || intervals[i].start != last + 1))
        merged[length++] = (struct interval){last + 1, after};
    for (; i < *count; i++) merged[length++] = intervals[i];
    // Neighbours with one verdict are one interval.
    *count = 0;
    for (unsigned j = 0; j < length; j++) {
        if (*count > 0 && intervals[*count - 1].verdict == merged[j].verdict) continue;
        if (*count < INTERVALS_MAX) intervals[(*count)++] = merged[j];
    }
}

/// A jump's offset from the instruction at `from` to the one at `to` (forward, at most 255;
/// 256 marks it too long, which the caller refuses).
static unsigned char offset(unsigned from, unsigned to, int *too_long) {
    if (to <= from || to - from - 1 > 255) {
        *too_long = 1;
        return 0;
    }
    return (unsigned char)(to - from - 1);
}

/// Emits the search over `intervals[0..<count]` (count ≥ 2) starting at instruction `at`, its
/// leaves jumping to `targets[verdict]`; returns the instructions it takes (count - 1).
static unsigned emit_search(struct seccomp_program *program, const struct interval *intervals, unsigned count,
    const unsigned *targets, int *too_long) {
    unsigned at = program->length;
    unsigned half = count / 2;
    // Below intervals[half].start: the left half; from it on: the right half.
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, intervals[half].start, 0, 0));
    if (half >= 2) emit_search(program, intervals, half, targets, too_long);
    unsigned right_at = program->length;
    if (count - half >= 2) emit_search(program, intervals + half, count - half, targets, too_long);
    if (at < SECCOMP_FILTER_MAX) {
        struct sock_filter *node = &program->code[at];
        node->jf = half >= 2 ? offset(at, at + 1, too_long) : offset(at, targets[intervals[0].verdict], too_long);
        node->jt = count - half >= 2 ? offset(at, right_at, too_long) : offset(at, targets[intervals[half].verdict], too_long);
    }
    return count - 1;
}

int widgethost_seccomp_program(int network, struct seccomp_program *program) {
    program->length = 0;
#ifndef SANDBOX_AUDIT_ARCH
    (void)network;
    return -1;
#else
    struct interval intervals[INTERVALS_MAX];
    unsigned count = 1;
    intervals[0] = (struct interval){0, VERDICT_ALLOW};
    for (size_t i = 0; i < sizeof refused_syscalls / sizeof refused_syscalls[0]; i++)
        set_verdict(intervals, &count, (uint32_t)refused_syscalls[i], (uint32_t)refused_syscalls[i], VERDICT_EPERM);
    // clone3 passes its flags in memory the filter cannot read: ENOSYS sends glibc back to clone.
#ifdef __NR_clone3
    set_verdict(intervals, &count, __NR_clone3, __NR_clone3, VERDICT_ENOSYS);
#endif
    set_verdict(intervals, &count, __NR_clone, __NR_clone, VERDICT_CLONE);
    set_verdict(intervals, &count, __NR_socket, __NR_socket, VERDICT_SOCKET);
    set_verdict(intervals, &count, __NR_socketpair, __NR_socketpair, VERDICT_SOCKET);
#if defined(__x86_64__)
    // x32's numbers (bit 30) are another ABI's way around the numbers above.
    set_verdict(intervals, &count, 0x40000000u, UINT32_MAX, VERDICT_EPERM);
#endif
    unsigned families = network ? 4 : 1;

    // Another architecture's calls (x86's 32-bit ones) would be a way around the numbers below.
    emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, arch)));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_AUDIT_ARCH, 1, 0));
    emit(program, (struct sock_filter)RETURN(SECCOMP_RET_KILL_PROCESS));
    emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, nr)));
    // Where each verdict's block will start, after the search (count - 1 instructions): the
    // two that read the first argument, then the three returns they jump to (jumps go forward).
    unsigned targets[VERDICTS];
    unsigned next = program->length + (count >= 2 ? count - 1 : 0);
    targets[VERDICT_CLONE] = next;
    next += 2;
    targets[VERDICT_SOCKET] = next;
    next += 2 + families;
    targets[VERDICT_ALLOW] = next++;
    targets[VERDICT_EPERM] = next++;
    targets[VERDICT_ENOSYS] = next;
    int too_long = 0;
    if (count >= 2) {
        emit_search(program, intervals, count, targets, &too_long);
    } else {
        emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0));
        program->code[program->length - 1].k = offset(program->length - 1, targets[intervals[0].verdict], &too_long);
    }
    // clone: no new namespaces (the flags are the first argument on every architecture here).
    const uint32_t namespaces = 0x00020000u /* NEWNS */ | 0x02000000u /* NEWCGROUP */ | 0x04000000u /* NEWUTS */
        | 0x08000000u /* NEWIPC */ | 0x10000000u /* NEWUSER */ | 0x20000000u /* NEWPID */ | 0x40000000u /* NEWNET */;
    emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, args[0])));
    unsigned at = program->length;
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, namespaces, 0, 0));
    if (at < SECCOMP_FILTER_MAX) {
        program->code[at].jt = offset(at, targets[VERDICT_EPERM], &too_long);
        program->code[at].jf = offset(at, targets[VERDICT_ALLOW], &too_long);
    }
    // socket and socketpair: AF_UNIX always; AF_INET, AF_INET6 and AF_NETLINK (getaddrinfo)
    // with the network entitlement; any other family (packet, raw, bluetooth, …) never.
    static const unsigned all[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};
    emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, args[0])));
    for (unsigned j = 0; j < families; j++) {
        at = program->length;
        emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, all[j], 0, 0));
        if (at < SECCOMP_FILTER_MAX) program->code[at].jt = offset(at, targets[VERDICT_ALLOW], &too_long);
    }
    // Another family: EAFNOSUPPORT, as on a kernel built without it.
    emit(program, (struct sock_filter)RETURN(ERRNO(EAFNOSUPPORT)));
    emit(program, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
    emit(program, (struct sock_filter)RETURN(ERRNO(EPERM)));
    emit(program, (struct sock_filter)RETURN(ERRNO(ENOSYS)));
    // A full program may have lost instructions, a jump may not fit: no filter rather than a wrong one.
    return program->length < SECCOMP_FILTER_MAX && !too_long ? 0 : -1;
#endif
}

static struct seccomp_program programs[2];
static int program_made[2];  // 1: made, -1: none here
static pthread_once_t programs_once = PTHREAD_ONCE_INIT;

static void make_programs(void) {
    for (int network = 0; network < 2; network++)
        program_made[network] = widgethost_seccomp_program(network, &programs[network]) == 0 ? 1 : -1;
}

const struct seccomp_program *seccomp_program_made(int network) {
    pthread_once(&programs_once, make_programs);
    int index = network ? 1 : 0;
    return program_made[index] == 1 ? &programs[index] : NULL;
}

int widgethost_seccomp_filter(int network, struct sock_filter *code, int capacity) {
    struct seccomp_program program;
    if (widgethost_seccomp_program(network, &program) != 0 || program.length > capacity) return -1;
    for (unsigned short i = 0; i < program.length; i++) code[i] = program.code[i];
    return program.length;
}
