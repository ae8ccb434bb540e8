#define _GNU_SOURCE
#include "seccomp_filter.h"
#include "CSpawn.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
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

// The calls the filter looks at, each with what it answers; every other call is allowed.
// They are found by a binary search over their numbers, not one comparison after another:
// the kernel runs the filter once for every system call number when it installs it (to
// cache which numbers are always allowed), so a chain of ~60 comparisons cost ~130 µs in
// every confined spawn, on the path between the clone and the extension's execve.
enum rule_kind { RULE_REFUSE, RULE_CLONE, RULE_SOCKET };

struct rule {
    unsigned nr;
    enum rule_kind kind;
    int error;  // RULE_REFUSE
};

/// Instructions a rule takes after the comparison that found it.
static unsigned rule_length(const struct rule *rule, unsigned families) {
    switch (rule->kind) {
    case RULE_REFUSE: return 1;
    case RULE_CLONE: return 4;
    case RULE_SOCKET: return families + 3;
    }
    return 1;
}

/// A run this short is compared one by one: each rule's comparison, its block; then allow.
#define LINEAR_RUN 3

static unsigned tree_length(const struct rule *rules, unsigned count, unsigned families) {
    if (count <= LINEAR_RUN) {
        unsigned length = 1;
        for (unsigned i = 0; i < count; i++) length += 1 + rule_length(&rules[i], families);
        return length;
    }
    unsigned half = count / 2;
    return 1 + tree_length(rules, half, families) + tree_length(rules + half, count - half, families);
}

static void emit_rule(struct seccomp_program *program, const struct rule *rule, unsigned families) {
    // The number is in the accumulator: not this call, skip its block.
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, rule->nr, 0, (unsigned char)rule_length(rule, families)));
    switch (rule->kind) {
    case RULE_REFUSE:
        emit(program, (struct sock_filter)RETURN(ERRNO(rule->error)));
        break;
    case RULE_CLONE: {
        // clone: no new namespaces (the flags are the first argument on every architecture here).
        const uint32_t namespaces = 0x00020000u /* NEWNS */ | 0x02000000u /* NEWCGROUP */ | 0x04000000u /* NEWUTS */
            | 0x08000000u /* NEWIPC */ | 0x10000000u /* NEWUSER */ | 0x20000000u /* NEWPID */ | 0x40000000u /* NEWNET */;
        emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, args[0])));
        emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, namespaces, 0, 1));
        emit(program, (struct sock_filter)RETURN(ERRNO(EPERM)));
        emit(program, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
        break;
    }
    case RULE_SOCKET: {
        // socket and socketpair: AF_UNIX always; AF_INET, AF_INET6 and AF_NETLINK (getaddrinfo)
        // with the network entitlement; any other family (packet, raw, bluetooth, …) never.
        static const unsigned all[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};
        emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, args[0])));
        for (unsigned j = 0; j < families; j++)
            emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, all[j], (unsigned char)(families - j), 0));
        // Another family: EAFNOSUPPORT, as on a kernel built without it.
        emit(program, (struct sock_filter)RETURN(ERRNO(EAFNOSUPPORT)));
        emit(program, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
        break;
    }
    }
}

/// `rules` sorted by number: below the middle one's number the first half, from it on the rest.
static void emit_tree(struct seccomp_program *program, const struct rule *rules, unsigned count, unsigned families) {
    if (count <= LINEAR_RUN) {
        for (unsigned i = 0; i < count; i++) emit_rule(program, &rules[i], families);
        emit(program, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
        return;
    }
    unsigned half = count / 2;
    unsigned below = tree_length(rules, half, families);
    if (below > 255) {
        // A jump this long does not fit: mark the program full (no filter rather than a wrong one).
        program->length = SECCOMP_FILTER_MAX;
        return;
    }
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, rules[half].nr, (unsigned char)below, 0));
    emit_tree(program, rules, half, families);
    emit_tree(program, rules + half, count - half, families);
}

#define RULES_MAX (sizeof refused_syscalls / sizeof refused_syscalls[0] + 4)

/// Adds `rule` in number order; a number already there keeps its first rule.
static void add_rule(struct rule *rules, unsigned *count, struct rule rule) {
    unsigned at = 0;
    while (at < *count && rules[at].nr < rule.nr) at++;
    if (at < *count && rules[at].nr == rule.nr) return;
    for (unsigned i = *count; i > at; i--) rules[i] = rules[i - 1];
    rules[at] = rule;
    (*count)++;
}

int widgethost_seccomp_program(int network, struct seccomp_program *program) {
    program->length = 0;
#ifndef SANDBOX_AUDIT_ARCH
    (void)network;
    return -1;
#else
    // Another ABI (x86's 32-bit calls, x32) would be a way around the numbers below.
    emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, arch)));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_AUDIT_ARCH, 1, 0));
    emit(program, (struct sock_filter)RETURN(SECCOMP_RET_KILL_PROCESS));
    emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    emit(program, (struct sock_filter)RETURN(ERRNO(EPERM)));
#endif
    struct rule rules[RULES_MAX];
    unsigned count = 0;
    for (size_t i = 0; i < sizeof refused_syscalls / sizeof refused_syscalls[0]; i++)
        add_rule(rules, &count, (struct rule){.nr = (unsigned)refused_syscalls[i], .kind = RULE_REFUSE, .error = EPERM});
    // clone3 passes its flags in memory the filter cannot read: ENOSYS sends glibc back to clone.
#ifdef __NR_clone3
    add_rule(rules, &count, (struct rule){.nr = __NR_clone3, .kind = RULE_REFUSE, .error = ENOSYS});
#endif
    add_rule(rules, &count, (struct rule){.nr = __NR_clone, .kind = RULE_CLONE});
    add_rule(rules, &count, (struct rule){.nr = __NR_socket, .kind = RULE_SOCKET});
    add_rule(rules, &count, (struct rule){.nr = __NR_socketpair, .kind = RULE_SOCKET});
    unsigned families = network ? 4 : 1;
    emit_tree(program, rules, count, families);
    // A full program may have lost instructions: no filter rather than a wrong one.
    return program->length < SECCOMP_FILTER_MAX ? 0 : -1;
#endif
}

int widgethost_seccomp_filter(int network, struct sock_filter *code, int capacity) {
    struct seccomp_program program;
    if (widgethost_seccomp_program(network, &program) != 0 || program.length > capacity) return -1;
    for (unsigned short i = 0; i < program.length; i++) code[i] = program.code[i];
    return program.length;
}
