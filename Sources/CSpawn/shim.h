// What the extension runner needs from glibc beyond Swift's Glibc module (no library to link):
// posix_spawn's closefrom action and pidfd_open.
#ifndef WIDGETHOST_CSPAWN_SHIM_H
#define WIDGETHOST_CSPAWN_SHIM_H

#include <errno.h>
#include <spawn.h>
#include <sys/types.h>
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

#endif
