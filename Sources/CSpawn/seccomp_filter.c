#define _GNU_SOURCE
#include "seccomp_filter.h"

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

/// `nr` answers `error` (the number is in the accumulator).
static void refuse(struct seccomp_program *program, int nr, int error) {
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1));
    emit(program, (struct sock_filter)RETURN(ERRNO(error)));
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
    for (size_t i = 0; i < sizeof refused_syscalls / sizeof refused_syscalls[0]; i++)
        refuse(program, refused_syscalls[i], EPERM);
    // clone3 passes its flags in memory the filter cannot read: ENOSYS sends glibc back to clone.
#ifdef __NR_clone3
    refuse(program, __NR_clone3, ENOSYS);
#endif
    // clone: no new namespaces (the flags are the first argument on every architecture here).
    const uint32_t namespaces = 0x00020000u /* NEWNS */ | 0x02000000u /* NEWCGROUP */ | 0x04000000u /* NEWUTS */
        | 0x08000000u /* NEWIPC */ | 0x10000000u /* NEWUSER */ | 0x20000000u /* NEWPID */ | 0x40000000u /* NEWNET */;
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4));
    emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, args[0])));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, namespaces, 0, 1));
    emit(program, (struct sock_filter)RETURN(ERRNO(EPERM)));
    emit(program, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
    // socket and socketpair: AF_UNIX always; AF_INET, AF_INET6 and AF_NETLINK (getaddrinfo)
    // with the network entitlement; any other family (packet, raw, bluetooth, …) never.
    unsigned families[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};
    unsigned count = network ? 4 : 1;
    int socket_calls[] = {__NR_socket, __NR_socketpair};
    for (int i = 0; i < 2; i++) {
        // Not this call: skip the block (load, the comparisons, two returns).
        emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)socket_calls[i], 0, (unsigned char)(count + 3)));
        emit(program, (struct sock_filter)LOAD(offsetof(struct seccomp_data, args[0])));
        for (unsigned j = 0; j < count; j++)
            emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, families[j], (unsigned char)(count - j), 0));
        // Another family: EAFNOSUPPORT, as on a kernel built without it.
        emit(program, (struct sock_filter)RETURN(ERRNO(EAFNOSUPPORT)));
        emit(program, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
    }
    emit(program, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
    // A full program may have lost instructions: no filter rather than a wrong one.
    return program->length < SECCOMP_FILTER_MAX ? 0 : -1;
#endif
}
