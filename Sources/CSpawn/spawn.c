// The one way an extension process starts (docs/security.md, "How the sandbox is applied").
//
// The parent (the daemon's event loop, the harness, the doctor) works out the confinement —
// a Landlock ruleset with the profile's paths, the seccomp filter, the process limit — and
// then clones a child that shares its memory and runs on a stack of its own
// (CLONE_VM | CLONE_VFORK, as glibc's posix_spawn does). The parent is suspended until the
// child's execve succeeds or the child exits. The child makes system calls only, in this order:
//   1. every signal back to its default disposition (the daemon ignores SIGPIPE, and a
//      handler of the daemon's must not run on the child's stack);
//   2. its own process group (a kill reaches its children too; the control socket knows an
//      extension peer by its group);
//   3. its stdin, stdout and stderr from the three pipes, and every other descriptor closed
//      but the ruleset's (a library's descriptor opened without O_CLOEXEC would otherwise
//      outlive a killed daemon in its extensions; and the sooner the child lets go of the
//      parent's descriptors, the shorter another thread's script, just written, stays
//      "busy" for its own execve: ETXTBSY);
//   4. RLIMIT_NOFILE and RLIMIT_NPROC;
//   5. PR_SET_NO_NEW_PRIVS;
//   6. a Landlock rule for its own /proc/PID (only the child can name it), then
//      landlock_restrict_self, and the ruleset's descriptor closed;
//   7. the seccomp filter;
//   8. an empty signal mask, and execve.
// Once the child has exec'd, the parent moves it off its own CPU if it is there
// (move_off_this_cpu). A step that fails is reported to the parent in the shared memory (which
// step, errno); the child exits 127. Without `required`, a rule that fails (Landlock, seccomp,
// a limit) is skipped, as the kernel lacking it is; with it, the spawn fails naming the rule.
//
// Each spawn gets a ruleset of its own (landlock_ruleset.c): a rule holds the inode its path
// named when the rule was added, so a ruleset kept per launch would keep refusing
// /etc/ld.so.cache after ldconfig replaced it (or /etc/passwd, a redeployed bundle); and
// /proc/self, opened by the parent, would name the daemon's /proc/PID. The next spawn's can be
// made ahead (widgethost_prepare_ruleset: the daemon makes it when the extension's process has
// exited), and is taken only if every path still names the same inode.
#define _GNU_SOURCE
#include "CSpawn.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "landlock_abi.h"
#include "landlock_ruleset.h"
#include "seccomp_filter.h"

#ifndef __NR_close_range
#define __NR_close_range 436
#endif

// MARK: - The parent's preparation

/// What the child needs, prepared by the parent; `step` and `error` are the child's report.
struct child_plan {
    const char *path;
    char *const *argv;
    char *const *envp;
    int fds[3];
    int ruleset;  // -1: no Landlock
    unsigned restrict_flags;
    uint64_t proc_self_access;
    const struct sock_fprog *filter;  // NULL: no seccomp
    long open_files;
    long nproc;
    int confined;
    int required;
    volatile int step;
    volatile int error;
};

enum child_step {
    STEP_NONE = 0,
    STEP_PROCESS_GROUP,
    STEP_DESCRIPTORS,
    STEP_OPEN_FILES,
    STEP_PROCESSES,
    STEP_NO_NEW_PRIVS,
    STEP_LANDLOCK,
    STEP_SECCOMP,
    STEP_EXEC,
};

static const char *step_rule(int step) {
    switch (step) {
    case STEP_PROCESS_GROUP: return "its own process group (setpgid)";
    case STEP_DESCRIPTORS: return "its descriptors (dup2, close_range)";
    case STEP_OPEN_FILES: return "the open-files limit (setrlimit RLIMIT_NOFILE)";
    case STEP_PROCESSES: return "the process limit (setrlimit RLIMIT_NPROC)";
    case STEP_NO_NEW_PRIVS: return "no_new_privs (PR_SET_NO_NEW_PRIVS)";
    case STEP_LANDLOCK: return "Landlock (landlock_restrict_self)";
    case STEP_SECCOMP: return "the seccomp filter (seccomp SECCOMP_SET_MODE_FILTER)";
    default: return "the spawn";
    }
}

/// A rule that cannot be applied: with `required`, the spawn's failure (true); without, skipped.
int sandbox_missing(const struct widgethost_sandbox *sandbox, struct widgethost_spawn_failure *failure,
    const char *rule, const char *why) {
    if (!sandbox->required) return 0;
    snprintf(failure->reason, sizeof failure->reason,
        "limits.sandbox = \"required\" and %s cannot be applied: %s; set limits.sandbox = \"auto\" to run with what this kernel offers",
        rule, why);
    failure->error = EPERM;
    return 1;
}

/// The tasks (processes and threads) the real uid has now: RLIMIT_NPROC counts them all.
static long tasks_of_user(uid_t uid) {
    DIR *proc = opendir("/proc");
    if (proc == NULL) return -1;
    long tasks = 0;
    int dir = dirfd(proc);
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
        struct stat info;
        if (fstatat(dir, entry->d_name, &info, 0) != 0 || info.st_uid != uid) continue;
        char task[sizeof entry->d_name + 8];
        snprintf(task, sizeof task, "%s/task", entry->d_name);
        // procfs counts a process's threads in its task directory's link count (+2).
        if (fstatat(dir, task, &info, 0) == 0 && info.st_nlink > 2) tasks += (long)info.st_nlink - 2;
        else tasks += 1;
    }
    closedir(proc);
    return tasks;
}

/// RLIMIT_NPROC for the child, -1 for none; 1 when the spawn must fail.
static int process_limit(const struct widgethost_sandbox *sandbox, struct widgethost_spawn_failure *failure, long *limit) {
    *limit = -1;
    if (sandbox->processes < 0) return 0;
    uid_t uid = getuid();
    if (uid == 0)
        return sandbox_missing(sandbox, failure, "the process limit",
            "RLIMIT_NPROC does not bind uid 0; run widgethostd as its own user or give it a delegated cgroup (pids.max)");
    long tasks = tasks_of_user(uid);
    if (tasks < 0) return sandbox_missing(sandbox, failure, "the process limit", "cannot read /proc to count the user's tasks");
    *limit = tasks + sandbox->processes;
    return 0;
}

// MARK: - The child

/// Closes the descriptors `first` through `last`. Before Linux 5.9 (no close_range): one
/// close each, up to RLIMIT_NOFILE.
static int close_range_or_each(unsigned first, unsigned last) {
    if (first > last) return 0;
    if (syscall(__NR_close_range, first, last, 0) == 0) return 0;
    if (errno != ENOSYS) return -1;
    struct rlimit limit;
    unsigned bound = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? (unsigned)limit.rlim_cur : 65536;
    for (unsigned fd = first; fd <= last && fd < bound; fd++) close((int)fd);
    return 0;
}

/// Closes every descriptor from `first` up but `kept` (-1: none).
static int close_from(int first, int kept) {
    if (kept < first) return close_range_or_each((unsigned)first, ~0U);
    if (close_range_or_each((unsigned)first, (unsigned)kept - 1) != 0) return -1;
    return close_range_or_each((unsigned)kept + 1, ~0U);
}

static void report(struct child_plan *plan, int step) {
    plan->error = errno != 0 ? errno : EPERM;
    plan->step = step;
    _exit(127);
}

static int child(void *argument) {
    struct child_plan *plan = argument;
    // 1. Default dispositions (SIGKILL and SIGSTOP refuse, and need nothing).
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    for (int signal = 1; signal < _NSIG; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        sigaction(signal, &default_action, NULL);
    }
    // 2.
    if (setpgid(0, 0) != 0) report(plan, STEP_PROCESS_GROUP);
    // 3. A pipe end that is itself 0–2 is moved out of the way first, so that no dup2
    // overwrites an end a later one needs; one already in place only loses O_CLOEXEC.
    int fds[3] = {plan->fds[0], plan->fds[1], plan->fds[2]};
    for (int i = 0; i < 3; i++) {
        if (fds[i] < 3 && fds[i] != i) {
            fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
            if (fds[i] < 0) report(plan, STEP_DESCRIPTORS);
        }
    }
    for (int i = 0; i < 3; i++) {
        if (fds[i] == i) {
            if (fcntl(i, F_SETFD, 0) != 0) report(plan, STEP_DESCRIPTORS);
        } else if (dup2(fds[i], i) != i) {
            report(plan, STEP_DESCRIPTORS);
        }
    }
    if (close_from(3, plan->ruleset) != 0) report(plan, STEP_DESCRIPTORS);
    if (plan->confined) {
        // 4.
        if (plan->open_files >= 0) {
            struct rlimit limit = {.rlim_cur = (rlim_t)plan->open_files, .rlim_max = (rlim_t)plan->open_files};
            if (setrlimit(RLIMIT_NOFILE, &limit) != 0 && plan->required) report(plan, STEP_OPEN_FILES);
        }
        if (plan->nproc >= 0) {
            struct rlimit limit = {.rlim_cur = (rlim_t)plan->nproc, .rlim_max = (rlim_t)plan->nproc};
            if (setrlimit(RLIMIT_NPROC, &limit) != 0 && plan->required) report(plan, STEP_PROCESSES);
        }
        // 5. Landlock and seccomp both need it: never skipped.
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) report(plan, STEP_NO_NEW_PRIVS);
        // 6.
        if (plan->ruleset >= 0) {
            if (plan->proc_self_access != 0) {
                int self = open("/proc/self", O_PATH | O_CLOEXEC);
                if (self >= 0) {
                    struct landlock_path_beneath_attr_v rule = {.allowed_access = plan->proc_self_access, .parent_fd = self};
                    if (syscall(__NR_landlock_add_rule, plan->ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0
                        && plan->required)
                        report(plan, STEP_LANDLOCK);
                    close(self);
                } else if (plan->required) {
                    report(plan, STEP_LANDLOCK);
                }
            }
            if (syscall(__NR_landlock_restrict_self, plan->ruleset, plan->restrict_flags) != 0 && plan->required)
                report(plan, STEP_LANDLOCK);
            close(plan->ruleset);
        }
        // 7.
        if (plan->filter != NULL && syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, plan->filter) != 0
            && plan->required)
            report(plan, STEP_SECCOMP);
    }
    // 8.
    sigset_t none;
    sigemptyset(&none);
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, _NSIG / 8);
    execve(plan->path, plan->argv, plan->envp);
    report(plan, STEP_EXEC);
    return 127;
}

// MARK: - Spawning

/// The new process off this CPU, if it is here and another is allowed, its CPU mask then as it
/// was. The execve wakes the parent of a CLONE_VFORK child, and the scheduler may wake it on the
/// child's CPU, where it preempts the child: the daemon's work after a spawn (the step's
/// transaction, the requests, the control reply) then ran first while the extension, halfway
/// through its execve, waited — 0.5–0.6 ms of every cold start on the 2-core VM whose kernel
/// always did so, with the other CPU idle (`sched_switch` traces, docs/benchmarks.md). Moved,
/// it loads beside the parent. Where the parent woke elsewhere, the child is not here: nothing moves.
static void move_off_this_cpu(pid_t pid) {
    int here = sched_getcpu();
    cpu_set_t allowed;
    if (here < 0 || sched_getaffinity(pid, sizeof allowed, &allowed) != 0) return;
    if (!CPU_ISSET(here, &allowed) || CPU_COUNT(&allowed) < 2) return;
    cpu_set_t elsewhere = allowed;
    CPU_CLR(here, &elsewhere);
    if (sched_setaffinity(pid, sizeof elsewhere, &elsewhere) != 0) return;
    sched_setaffinity(pid, sizeof allowed, &allowed);
}

/// Whether a spawn of `sandbox` has a Landlock ruleset: the profile allows Landlock, or
/// `required` needs the attempt to name what is missing.
static int has_ruleset(const struct widgethost_sandbox *sandbox) {
    return sandbox->abi_cap > 0 || sandbox->required;
}

void widgethost_prepare_ruleset(const struct widgethost_sandbox *sandbox) {
    if (has_ruleset(sandbox)) sandbox_ruleset_prepare_next(sandbox);
}

int widgethost_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

pid_t widgethost_spawn(
    const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd,
    const struct widgethost_sandbox *sandbox, struct widgethost_spawn_failure *failure) {
    memset(failure, 0, sizeof *failure);
    struct child_plan plan = {
        .path = path, .argv = argv, .envp = envp, .fds = {stdin_fd, stdout_fd, stderr_fd},
        .ruleset = -1, .open_files = -1, .nproc = -1,
    };
    struct sock_fprog program = {0};
    if (sandbox != NULL) {
        plan.confined = 1;
        plan.required = sandbox->required;
        plan.open_files = sandbox->open_files;
        if (process_limit(sandbox, failure, &plan.nproc)) return -1;
        if (has_ruleset(sandbox)) {
            plan.ruleset = sandbox_ruleset(sandbox, failure, &plan.restrict_flags, &plan.proc_self_access);
            if (plan.ruleset < 0 && failure->error != 0) return -1;
        }
        if (sandbox->seccomp) {
            const struct seccomp_program *filter = seccomp_program_made(sandbox->network);
            if (filter == NULL) {
                if (sandbox_missing(sandbox, failure, "the seccomp filter", "this architecture has no filter here")) goto failed;
            } else {
                program.len = filter->length;
                // The kernel only reads it.
                program.filter = (struct sock_filter *)filter->code;
                plan.filter = &program;
            }
        } else if (sandbox_missing(sandbox, failure, "the seccomp filter", "the kernel has no seccomp filters (CONFIG_SECCOMP_FILTER)")) {
            goto failed;
        }
    }

    // No signal handler of the parent's may run in the child before its dispositions are
    // reset (its stack is not the handler's thread's): every signal is blocked across the
    // clone, the internal ones glibc keeps for itself included.
    sigset_t all, previous;
    sigfillset(&all);
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &previous, _NSIG / 8);
    // The child's stack: the parent is suspended until the child's execve or exit.
    _Alignas(16) char stack[32768];
    pid_t pid = clone(child, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &plan);
    int clone_error = errno;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &previous, NULL, _NSIG / 8);
    if (plan.ruleset >= 0) close(plan.ruleset);

    if (pid < 0) {
        failure->error = clone_error;
        return -1;
    }
    if (plan.step != STEP_NONE) {
        // The child has exited: reap it.
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        failure->error = plan.error;
        if (plan.step != STEP_EXEC) {
            snprintf(failure->reason, sizeof failure->reason, "%s%s failed: %s",
                plan.required && plan.step != STEP_NO_NEW_PRIVS ? "limits.sandbox = \"required\" and " : "",
                step_rule(plan.step), strerror(plan.error));
        }
        return -1;
    }
    move_off_this_cpu(pid);
    return pid;
failed:
    if (plan.ruleset >= 0) close(plan.ruleset);
    return -1;
}
