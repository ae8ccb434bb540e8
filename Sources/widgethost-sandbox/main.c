// widgethost-sandbox: confines itself, then execs a widget extension (docs/security.md).
//
//   widgethost-sandbox [--read PATH]... [--write PATH]... [--network] [--processes N]
//                      [--open-files N] [--abi N] [--required] [--report-fd FD] -- EXECUTABLE [ARG]...
//   widgethost-sandbox --probe
//
// In this order, all in the process that becomes the extension (the pid stays the same):
//   1. resource limits: RLIMIT_NOFILE = --open-files; RLIMIT_NPROC = the tasks the user has
//      now plus --processes (RLIMIT_NPROC counts per user; uid 0 is exempt from it);
//   2. PR_SET_NO_NEW_PRIVS (setuid bits and file capabilities no longer apply);
//   3. Landlock, at the ABI the kernel offers, capped by --abi and by 7 (the newest this
//      file knows): read/execute beneath each --read, everything but device nodes beneath
//      each --write, nothing else; TCP bind never, TCP connect only with --network (ABI 4);
//      no signals to and no abstract Unix sockets of processes outside the sandbox (ABI 6);
//   4. a seccomp filter: no ptrace, no other process's memory, no namespaces, mounts,
//      keyrings, BPF, perf, io_uring, modules, no leaving its process group (setsid,
//      setpgid); sockets only AF_UNIX without --network;
//   5. execve.
// Without --required a rule the kernel lacks is skipped (the host logged it once, at its
// start); with it, the shim exits 125 naming the rule. A path that does not exist is
// skipped in both modes (there is nothing to grant). Exit 127: the execve failed.
// --report-fd: a pipe to the host, close-on-exec here, so that like posix_spawn the host
// learns that the execve failed ("errno N") or that a rule refused it ("refused SENTENCE");
// end of file means the extension runs.
// Written in C with no library but libc: it runs before the extension on every spawn.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock_abi.h"

#define SANDBOX_FAILED 125
#define EXEC_FAILED 127
#define MAX_PATHS 256

static const char *program = "widgethost-sandbox";
static int report_fd = -1;

/// Tells the host why no extension runs (see --report-fd).
static void report(const char *format, const char *text, int number) {
    if (report_fd < 0) return;
    char line[1024];
    int length = text != NULL ? snprintf(line, sizeof line, format, text) : snprintf(line, sizeof line, format, number);
    if (length > 0) {
        ssize_t ignored = write(report_fd, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
        (void)ignored;
    }
}

struct options {
    const char *reads[MAX_PATHS];
    int read_count;
    const char *writes[MAX_PATHS];
    int write_count;
    int network;
    long processes;   // -1: no limit asked
    long open_files;  // -1: no limit asked
    int abi_cap;      // -1: the kernel's
    int required;
    int report_fd;    // -1: none
    char **command;
};

static void usage(void) {
    fprintf(stderr,
        "usage: %s [--read PATH]... [--write PATH]... [--network] [--processes N] [--open-files N] "
        "[--abi N] [--required] -- EXECUTABLE [ARG]...\n       %s --probe\n",
        program, program);
    exit(2);
}

/// A rule that could not be applied: fatal with --required, a note on stderr otherwise.
static void missing(const struct options *options, const char *rule, const char *why) {
    if (options->required) {
        char sentence[768];
        snprintf(sentence, sizeof sentence, "limits.sandbox = \"required\" and %s cannot be applied: %s", rule, why);
        fprintf(stderr, "%s: %s\n", program, sentence);
        report("refused %s", sentence, 0);
        exit(SANDBOX_FAILED);
    }
}

static long number(const char *text, const char *flag) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < 0) {
        fprintf(stderr, "%s: %s %s is not a non-negative integer\n", program, flag, text);
        exit(2);
    }
    return value;
}

static void parse(int argc, char **argv, struct options *options) {
    memset(options, 0, sizeof *options);
    options->processes = -1;
    options->open_files = -1;
    options->abi_cap = -1;
    options->report_fd = -1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            if (i + 1 >= argc) usage();
            options->command = &argv[i + 1];
            return;
        }
        int has_value = i + 1 < argc;
        if (strcmp(arg, "--read") == 0 && has_value) {
            if (options->read_count == MAX_PATHS) usage();
            options->reads[options->read_count++] = argv[++i];
        } else if (strcmp(arg, "--write") == 0 && has_value) {
            if (options->write_count == MAX_PATHS) usage();
            options->writes[options->write_count++] = argv[++i];
        } else if (strcmp(arg, "--network") == 0) {
            options->network = 1;
        } else if (strcmp(arg, "--required") == 0) {
            options->required = 1;
        } else if (strcmp(arg, "--processes") == 0 && has_value) {
            options->processes = number(argv[++i], arg);
        } else if (strcmp(arg, "--open-files") == 0 && has_value) {
            options->open_files = number(argv[++i], arg);
        } else if (strcmp(arg, "--report-fd") == 0 && has_value) {
            options->report_fd = (int)number(argv[++i], arg);
        } else if (strcmp(arg, "--abi") == 0 && has_value) {
            options->abi_cap = (int)number(argv[++i], arg);
        } else {
            usage();
        }
    }
    usage();
}

// MARK: - Landlock

static int kernel_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

static uint64_t handled_fs(int abi) {
    uint64_t access = LL_FS_ABI1;
    if (abi >= 2) access |= LL_FS_REFER;
    if (abi >= 3) access |= LL_FS_TRUNCATE;
    if (abi >= 5) access |= LL_FS_IOCTL_DEV;
    return access;
}

static void grant(int ruleset, const char *path, uint64_t access, uint64_t handled, const struct options *options) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) return;  // nothing there to grant
        char why[512];
        snprintf(why, sizeof why, "cannot open %s: %s", path, strerror(errno));
        missing(options, "a filesystem rule", why);
        return;
    }
    struct stat info;
    if (fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) access &= LL_FS_FILE_RIGHTS;
    struct landlock_path_beneath_attr_v rule = {.allowed_access = access & handled, .parent_fd = fd};
    if (syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0) {
        char why[512];
        snprintf(why, sizeof why, "landlock_add_rule(%s): %s", path, strerror(errno));
        missing(options, "a filesystem rule", why);
    }
    close(fd);
}

static void apply_landlock(const struct options *options) {
    int abi = kernel_landlock_abi();
    if (options->abi_cap >= 0 && abi > options->abi_cap) abi = options->abi_cap;
    if (abi > LANDLOCK_NEWEST_KNOWN_ABI) abi = LANDLOCK_NEWEST_KNOWN_ABI;
    if (abi < 1) {
        missing(options, "Landlock (filesystem rules)", "the kernel offers no Landlock (CONFIG_SECURITY_LANDLOCK, lsm=landlock)");
        return;
    }
    if (abi < 4) missing(options, "Landlock's TCP rules", "they need Landlock ABI 4 (Linux 6.7)");
    if (abi < 6) missing(options, "Landlock's signal and abstract-socket scoping", "it needs Landlock ABI 6 (Linux 6.12)");

    struct landlock_ruleset_attr_v attr = {.handled_access_fs = handled_fs(abi)};
    size_t size = offsetof(struct landlock_ruleset_attr_v, handled_access_net);
    if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | (options->network ? 0 : LL_NET_CONNECT_TCP);
        size = offsetof(struct landlock_ruleset_attr_v, scoped);
    }
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
        size = sizeof attr;
    }
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) {
        char why[256];
        snprintf(why, sizeof why, "landlock_create_ruleset: %s", strerror(errno));
        missing(options, "Landlock", why);
        return;
    }
    uint64_t read = LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR;
    // Everything but device nodes (and ioctl on devices).
    uint64_t write = handled_fs(abi) & ~(LL_FS_MAKE_CHAR | LL_FS_MAKE_BLOCK | LL_FS_IOCTL_DEV);
    for (int i = 0; i < options->read_count; i++) grant(ruleset, options->reads[i], read, attr.handled_access_fs, options);
    for (int i = 0; i < options->write_count; i++) grant(ruleset, options->writes[i], write, attr.handled_access_fs, options);
    // ABI 7: denials after the exec go to the audit log, so an operator can see what was refused.
    unsigned flags = abi >= 7 ? LL_RESTRICT_SELF_LOG_NEW_EXEC_ON : 0;
    if (syscall(__NR_landlock_restrict_self, ruleset, flags) != 0) {
        char why[256];
        snprintf(why, sizeof why, "landlock_restrict_self: %s", strerror(errno));
        missing(options, "Landlock", why);
    }
    close(ruleset);
}

// MARK: - seccomp

#if defined(__x86_64__)
#define SANDBOX_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SANDBOX_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define SANDBOX_AUDIT_ARCH AUDIT_ARCH_RISCV64
#endif

#define FILTER_MAX 160
struct filter {
    struct sock_filter code[FILTER_MAX];
    unsigned short length;
};

static void emit(struct filter *filter, struct sock_filter instruction) {
    if (filter->length == FILTER_MAX) {
        fprintf(stderr, "%s: the seccomp filter grew past %d instructions\n", program, FILTER_MAX);
        exit(SANDBOX_FAILED);
    }
    filter->code[filter->length++] = instruction;
}

#define LOAD(offset) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (offset))
#define RETURN(value) BPF_STMT(BPF_RET | BPF_K, (value))
#define ERRNO(value) (SECCOMP_RET_ERRNO | ((value) & SECCOMP_RET_DATA))

/// `nr` answers `errno` (the number is in the accumulator).
static void refuse(struct filter *filter, int nr, int error) {
    emit(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1));
    emit(filter, (struct sock_filter)RETURN(ERRNO(error)));
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

static void apply_seccomp(const struct options *options) {
#ifndef SANDBOX_AUDIT_ARCH
    missing(options, "the seccomp filter", "this architecture has no filter here");
    return;
#else
    struct filter filter = {.length = 0};
    // Another ABI (x86's 32-bit calls, x32) would be a way around the numbers below.
    emit(&filter, (struct sock_filter)LOAD(offsetof(struct seccomp_data, arch)));
    emit(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_AUDIT_ARCH, 1, 0));
    emit(&filter, (struct sock_filter)RETURN(SECCOMP_RET_KILL_PROCESS));
    emit(&filter, (struct sock_filter)LOAD(offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    emit(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    emit(&filter, (struct sock_filter)RETURN(ERRNO(EPERM)));
#endif
    for (size_t i = 0; i < sizeof refused_syscalls / sizeof refused_syscalls[0]; i++)
        refuse(&filter, refused_syscalls[i], EPERM);
    // clone3 passes its flags in memory the filter cannot read: ENOSYS sends glibc back to clone.
#ifdef __NR_clone3
    refuse(&filter, __NR_clone3, ENOSYS);
#endif
    // clone: no new namespaces (the flags are the first argument on every architecture here).
    const uint32_t namespaces = 0x00020000u /* NEWNS */ | 0x02000000u /* NEWCGROUP */ | 0x04000000u /* NEWUTS */
        | 0x08000000u /* NEWIPC */ | 0x10000000u /* NEWUSER */ | 0x20000000u /* NEWPID */ | 0x40000000u /* NEWNET */;
    emit(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4));
    emit(&filter, (struct sock_filter)LOAD(offsetof(struct seccomp_data, args[0])));
    emit(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, namespaces, 0, 1));
    emit(&filter, (struct sock_filter)RETURN(ERRNO(EPERM)));
    emit(&filter, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
    // socket and socketpair: AF_UNIX always; AF_INET, AF_INET6 and AF_NETLINK (getaddrinfo)
    // with --network; any other family (packet, raw, bluetooth, …) never.
    unsigned families[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};
    unsigned count = options->network ? 4 : 1;
    int socket_calls[] = {__NR_socket, __NR_socketpair};
    for (int i = 0; i < 2; i++) {
        // Not this call: skip the block (load, the comparisons, two returns).
        emit(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)socket_calls[i], 0, (unsigned char)(count + 3)));
        emit(&filter, (struct sock_filter)LOAD(offsetof(struct seccomp_data, args[0])));
        for (unsigned j = 0; j < count; j++)
            emit(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, families[j], (unsigned char)(count - j), 0));
        // Another family: EAFNOSUPPORT, as on a kernel built without it.
        emit(&filter, (struct sock_filter)RETURN(ERRNO(EAFNOSUPPORT)));
        emit(&filter, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));
    }
    emit(&filter, (struct sock_filter)RETURN(SECCOMP_RET_ALLOW));

    struct sock_fprog program_ = {.len = filter.length, .filter = filter.code};
    if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program_) != 0) {
        char why[256];
        snprintf(why, sizeof why, "seccomp(SECCOMP_SET_MODE_FILTER): %s", strerror(errno));
        missing(options, "the seccomp filter", why);
    }
#endif
}

// MARK: - Resource limits

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

static void apply_limits(const struct options *options) {
    if (options->open_files >= 0) {
        struct rlimit limit = {.rlim_cur = (rlim_t)options->open_files, .rlim_max = (rlim_t)options->open_files};
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
            char why[128];
            snprintf(why, sizeof why, "setrlimit(RLIMIT_NOFILE): %s", strerror(errno));
            missing(options, "the open-files limit", why);
        }
    }
    if (options->processes >= 0) {
        uid_t uid = getuid();
        if (uid == 0) {
            missing(options, "the process limit", "RLIMIT_NPROC does not bind uid 0; run widgethostd as its own user or give it a delegated cgroup (pids.max)");
            return;
        }
        long tasks = tasks_of_user(uid);
        if (tasks < 0) {
            missing(options, "the process limit", "cannot read /proc to count the user's tasks");
            return;
        }
        struct rlimit limit = {.rlim_cur = (rlim_t)(tasks + options->processes), .rlim_max = (rlim_t)(tasks + options->processes)};
        if (setrlimit(RLIMIT_NPROC, &limit) != 0) {
            char why[128];
            snprintf(why, sizeof why, "setrlimit(RLIMIT_NPROC): %s", strerror(errno));
            missing(options, "the process limit", why);
        }
    }
}

static int seccomp_available(void) {
    // PR_GET_SECCOMP fails with EINVAL on a kernel built without CONFIG_SECCOMP.
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--probe") == 0) {
        printf("landlock %d\nseccomp %d\n", kernel_landlock_abi(), seccomp_available());
        return 0;
    }
    struct options options;
    parse(argc, argv, &options);
    if (options.report_fd >= 0 && fcntl(options.report_fd, F_SETFD, FD_CLOEXEC) == 0) report_fd = options.report_fd;

    apply_limits(&options);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        fprintf(stderr, "%s: PR_SET_NO_NEW_PRIVS: %s\n", program, strerror(errno));
        report("refused PR_SET_NO_NEW_PRIVS failed: %s", strerror(errno), 0);
        return SANDBOX_FAILED;  // Landlock and seccomp both need it
    }
    apply_landlock(&options);
    apply_seccomp(&options);

    execv(options.command[0], options.command);
    int error = errno;
    fprintf(stderr, "%s: cannot run %s: %s\n", program, options.command[0], strerror(error));
    report("errno %d", NULL, error);
    return EXEC_FAILED;
}
