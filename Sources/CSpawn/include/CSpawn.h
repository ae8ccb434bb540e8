// The extension runner's C: the spawn that confines an extension before its own code runs
// (spawn.c, docs/security.md), and what it needs from glibc beyond Swift's Glibc module:
// pidfd_open and the sandbox's probes.
#ifndef WIDGETHOST_CSPAWN_H
#define WIDGETHOST_CSPAWN_H

#include <errno.h>
#include <linux/filter.h>
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

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

// The Landlock ABI the kernel offers (0: none), as the confined child will find it, so that the
// host can log once what is missing and refuse in `required` mode before any process starts.
static inline int widgethost_landlock_abi(void) {
    long abi = syscall(444 /* landlock_create_ruleset, every architecture */, (void *)0, 0, 1U /* VERSION */);
    return abi < 0 ? 0 : (int)abi;
}

// Whether the kernel has seccomp filters (PR_GET_SECCOMP fails with EINVAL without CONFIG_SECCOMP).
static inline int widgethost_seccomp_available(void) {
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

// MARK: - Spawning

/// The seccomp filter a confined extension gets (seccomp_filter.c, docs/security.md): its
/// instructions copied into `code`, at most `capacity`. Returns how many, or -1 (no filter for
/// this architecture, or `capacity` is too small). For tests that run it.
int widgethost_seccomp_filter(int network, struct sock_filter *code, int capacity);

/// A pipe whose two ends close on exec, made in one system call (pipe2): `fds[0]` reads,
/// `fds[1]` writes. 0, or -1 with errno set.
int widgethost_pipe_cloexec(int fds[2]);

/// How an extension process is confined; NULL: not at all (`limits.sandbox = "off"`).
struct widgethost_sandbox {
    /// Read and execute beneath each (a file: that file only).
    const char *const *reads;
    int read_count;
    /// Read, write, create and remove beneath each (no device nodes).
    const char *const *writes;
    int write_count;
    /// TCP connect allowed, and internet and netlink sockets (com.apple.security.network.client).
    int network;
    /// The Landlock ABI to use at most (what the host found, or a faked older kernel); 0: none.
    int abi_cap;
    /// Install the seccomp filter.
    int seccomp;
    /// RLIMIT_NOFILE; -1: unchanged.
    long open_files;
    /// RLIMIT_NPROC over the tasks the user has now; -1: unchanged.
    long processes;
    /// A rule that cannot be applied refuses the spawn (`limits.sandbox = "required"`).
    int required;
};

/// Why a spawn failed: `error` is an errno (the execve's, say ENOENT for a missing
/// interpreter); `reason`, when not empty, is the sentence of a refused rule.
struct widgethost_spawn_failure {
    int error;
    char reason[768];
};

/// Starts `path` with exactly `argv` and `envp`, its stdin, stdout and stderr on `stdin_fd`,
/// `stdout_fd` and `stderr_fd` and no other descriptor, in a new process group, with default
/// signal dispositions and an empty signal mask, confined by `sandbox`: all of it in a
/// `CLONE_VM | CLONE_VFORK` child that makes system calls only, before its `execve`, as glibc's
/// posix_spawn does. Returns the pid, or -1 with `failure` filled in (no child is left).
pid_t widgethost_spawn(
    const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd,
    const struct widgethost_sandbox *sandbox, struct widgethost_spawn_failure *failure);

/// Makes the Landlock ruleset the next spawn of `sandbox` takes (landlock_ruleset.c), if
/// `sandbox` has one: ~30 paths opened and added to it, 0.1–0.3 ms. Call it off a start's
/// path; the spawn makes its own when none was made or a path has changed since.
void widgethost_prepare_ruleset(const struct widgethost_sandbox *sandbox);

/// How many spawns have taken a ruleset made ahead (landlock_ruleset.c) rather than making
/// their own: for tests that a replaced path is still granted as it is now.
unsigned long widgethost_prepared_rulesets_taken(void);

/// Whether any swap slot is in use (`sysinfo(2)`: `totalswap != freeswap`), for the footprint
/// reader (`Swap.inUse`; Swift's Glibc module has no `sys/sysinfo.h`). 1 if `sysinfo` fails.
int widgethost_swap_in_use(void);

#endif
