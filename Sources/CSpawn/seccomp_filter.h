// The seccomp filter every confined extension gets (docs/security.md).
#ifndef WIDGETHOST_SECCOMP_FILTER_H
#define WIDGETHOST_SECCOMP_FILTER_H

#include <linux/filter.h>

#define SECCOMP_FILTER_MAX 256

struct seccomp_program {
    struct sock_filter code[SECCOMP_FILTER_MAX];
    unsigned short length;
};

/// Fills `program`: no ptrace, no other process's memory, no namespaces, mounts, keyrings,
/// BPF, perf, io_uring, modules, no leaving its process group (setsid, setpgid); sockets only
/// AF_UNIX without `network` (AF_INET, AF_INET6 and AF_NETLINK too with it). -1: this
/// architecture has no filter here.
int widgethost_seccomp_program(int network, struct seccomp_program *program);

/// The program for `network`, made once per process (it depends on nothing else); NULL where
/// this architecture has none.
const struct seccomp_program *seccomp_program_made(int network);

#endif
