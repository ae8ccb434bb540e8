// What the extension runner needs from glibc beyond Swift's Glibc module (no library to link):
// posix_spawn's closefrom action, pidfd_open, and the sandbox's probes.
#ifndef WIDGETHOST_CSPAWN_SHIM_H
#define WIDGETHOST_CSPAWN_SHIM_H

#include <errno.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// glibc ≥ 2.34 (Debian 12: 2.36) has this, but declares it only under _GNU_SOURCE, which
// Swift's Glibc module is not built with. The spawner uses it so that a child inherits
// nothing but its three pipes, whatever a library opened without O_CLOEXEC.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

// A descriptor that becomes readable when `pid` exits (Linux 5.3+), so that the synchronous
// face waits for output and exit in one poll(2); -1 with errno set where the kernel lacks it.
static inline int widgethost_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// The Landlock ABI the kernel offers (0: none), as widgethost-sandbox will find it, so that the
// host can log once what is missing and refuse in `required` mode before any process starts.
static inline int widgethost_landlock_abi(void) {
    long abi = syscall(444 /* landlock_create_ruleset, every architecture */, (void *)0, 0, 1U /* VERSION */);
    return abi < 0 ? 0 : (int)abi;
}

// Whether the kernel has seccomp filters (PR_GET_SECCOMP fails with EINVAL without CONFIG_SECCOMP).
static inline int widgethost_seccomp_available(void) {
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

#endif
