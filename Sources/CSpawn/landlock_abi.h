// Landlock's user API up to ABI 7, declared here because Debian 12's linux-libc-dev (6.1)
// stops at ABI 2 while the kernels it runs on go further. Values from the kernel's
// include/uapi/linux/landlock.h; the syscall numbers are the same on every architecture.
#ifndef WIDGETHOST_LANDLOCK_ABI_H
#define WIDGETHOST_LANDLOCK_ABI_H

#include <stdint.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

/// The newest ABI whose rules this shim knows how to ask for.
#define LANDLOCK_NEWEST_KNOWN_ABI 7

#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#define LANDLOCK_RULE_PATH_BENEATH 1

struct landlock_ruleset_attr_v {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;  // ABI 4
    uint64_t scoped;              // ABI 6
};

struct landlock_path_beneath_attr_v {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_ABI1 ((1ULL << 13) - 1)
#define LL_FS_REFER (1ULL << 13)     // ABI 2
#define LL_FS_TRUNCATE (1ULL << 14)  // ABI 3
#define LL_FS_IOCTL_DEV (1ULL << 15) // ABI 5
/// The rights that mean something on a file (not a directory).
#define LL_FS_FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)

#define LL_NET_BIND_TCP (1ULL << 0)    // ABI 4
#define LL_NET_CONNECT_TCP (1ULL << 1) // ABI 4

#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) // ABI 6
#define LL_SCOPE_SIGNAL (1ULL << 1)               // ABI 6

#define LL_RESTRICT_SELF_LOG_NEW_EXEC_ON (1U << 1) // ABI 7

#endif
