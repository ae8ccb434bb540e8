// The Landlock ruleset of a confined spawn: the profile's paths, each opened (O_PATH) and
// added as a rule that holds the inode it names (docs/security.md).
//
// A ruleset must grant what each path names at the spawn: a rule made earlier would go on
// naming /etc/ld.so.cache after ldconfig replaced it by rename, a bundle redeployed under the
// same path, a container replaced. Making it costs 29 × open(O_PATH), landlock_add_rule and
// close, ~0.1 ms at each start. So the next spawn's ruleset is made ahead, off the start's path
// (widgethost_prepare_ruleset: the daemon makes it once the extension's process has exited;
// made right after the clone, it ran beside the loading extension, on its CPU), with what each
// path named then (device and inode, or nothing), and the next spawn of the same profile takes
// it only if a stat of each path still finds the
// same (the rule keeps its inode alive, so no other file can take the number meanwhile);
// otherwise it makes a new one, as before. Each is used once: the child adds its own /proc/PID
// to it.
#define _GNU_SOURCE
#include "landlock_ruleset.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock_abi.h"

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

/// What one granted path named when its rule was added: the inode the rule holds (the rule
/// keeps it alive, so no other file can take its number meanwhile), or nothing.
struct path_identity {
    dev_t device;
    ino_t inode;
    int absent;    // no such file: no rule
    int unusable;  // not granted for another reason (auto mode skipped it): never reused
};

/// Adds `path` (a path that does not exist is skipped: there is nothing to grant), and notes in
/// `identity` (if not NULL) what it named. Returns 1 when the spawn must fail.
static int grant(int ruleset, const char *path, uint64_t access, const struct widgethost_sandbox *sandbox,
    struct widgethost_spawn_failure *failure, struct path_identity *identity) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            if (identity != NULL) identity->absent = 1;
            return 0;
        }
        if (identity != NULL) identity->unusable = 1;
        char why[512];
        snprintf(why, sizeof why, "cannot open %s: %s", path, strerror(errno));
        return sandbox_missing(sandbox, failure, "a filesystem rule", why);
    }
    struct landlock_path_beneath_attr_v rule = {.allowed_access = access, .parent_fd = fd};
    long added = syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    if (added != 0 && errno == EINVAL) {
        // A file, not a directory: only the rights that mean something on a file.
        rule.allowed_access = access & LL_FS_FILE_RIGHTS;
        added = syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    }
    int saved = errno;
    if (identity != NULL) {
        struct stat info;
        if (added != 0 || fstat(fd, &info) != 0) {
            identity->unusable = 1;
        } else {
            identity->device = info.st_dev;
            identity->inode = info.st_ino;
        }
    }
    close(fd);
    if (added != 0) {
        char why[512];
        snprintf(why, sizeof why, "landlock_add_rule(%s): %s", path, strerror(saved));
        return sandbox_missing(sandbox, failure, "a filesystem rule", why);
    }
    return 0;
}

/// The ruleset for one spawn, or -1 (none: the kernel has no Landlock, or a failure, which
/// `failure->error` tells apart).
static int make_ruleset(const struct widgethost_sandbox *sandbox, struct widgethost_spawn_failure *failure,
    unsigned *restrict_flags, uint64_t *proc_self_access, struct path_identity *identities) {
    int granted = 0;
    int abi = kernel_landlock_abi();
    if (abi > sandbox->abi_cap) abi = sandbox->abi_cap;
    if (abi > LANDLOCK_NEWEST_KNOWN_ABI) abi = LANDLOCK_NEWEST_KNOWN_ABI;
    if (abi < 1) {
        sandbox_missing(sandbox, failure, "Landlock (filesystem rules)", "the kernel offers no Landlock (CONFIG_SECURITY_LANDLOCK, lsm=landlock)");
        return -1;
    }
    if (abi < 4 && sandbox_missing(sandbox, failure, "Landlock's TCP rules", "they need Landlock ABI 4 (Linux 6.7)")) return -1;
    if (abi < 6 && sandbox_missing(sandbox, failure, "Landlock's signal and abstract-socket scoping", "it needs Landlock ABI 6 (Linux 6.12)"))
        return -1;

    struct landlock_ruleset_attr_v attr = {.handled_access_fs = handled_fs(abi)};
    size_t size = offsetof(struct landlock_ruleset_attr_v, handled_access_net);
    if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | (sandbox->network ? 0 : LL_NET_CONNECT_TCP);
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
        sandbox_missing(sandbox, failure, "Landlock", why);
        return -1;
    }
    if (ruleset < 3) {
        // A host started with its standard descriptors closed: keep it clear of the child's dup2s.
        int moved = fcntl(ruleset, F_DUPFD_CLOEXEC, 3);
        close(ruleset);
        if (moved < 0) {
            char why[256];
            snprintf(why, sizeof why, "fcntl(F_DUPFD_CLOEXEC): %s", strerror(errno));
            sandbox_missing(sandbox, failure, "Landlock", why);
            return -1;
        }
        ruleset = moved;
    }
    // Descriptors are close-on-exec; the child's are closed before its execve anyway.
    uint64_t read = (LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR) & attr.handled_access_fs;
    // Everything but device nodes (and ioctl on devices).
    uint64_t write = attr.handled_access_fs & ~(LL_FS_MAKE_CHAR | LL_FS_MAKE_BLOCK | LL_FS_IOCTL_DEV);
    for (int i = 0; i < sandbox->read_count; i++) {
        // The child grants its own /proc/PID (step 6); the parent's would be the daemon's.
        if (strcmp(sandbox->reads[i], "/proc/self") == 0) {
            *proc_self_access = read;
            continue;
        }
        if (grant(ruleset, sandbox->reads[i], read, sandbox, failure, identities ? &identities[granted] : NULL)) goto failed;
        granted++;
    }
    for (int i = 0; i < sandbox->write_count; i++) {
        if (grant(ruleset, sandbox->writes[i], write, sandbox, failure, identities ? &identities[granted] : NULL)) goto failed;
        granted++;
    }
    // ABI 7: denials after the exec go to the audit log, so an operator can see what was refused.
    *restrict_flags = abi >= 7 ? LL_RESTRICT_SELF_LOG_NEW_EXEC_ON : 0;
    return ruleset;
failed:
    close(ruleset);
    return -1;
}

// MARK: - Made ahead

/// The rulesets made ahead, one per profile (the daemon's launches), at most this many.
#define PREPARED_MAX 16

struct prepared {
    char *profile;  // every field of the sandbox the ruleset depends on (profile_key)
    size_t length;
    int ruleset;    // -1: taken
    unsigned restrict_flags;
    uint64_t proc_self_access;
    struct path_identity *identities;  // reads but /proc/self, then writes
    unsigned long used;  // for evicting the least recently used
};

static pthread_mutex_t prepared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct prepared prepared[PREPARED_MAX];
static unsigned long prepared_clock;
static unsigned long prepared_taken;

/// `sandbox`'s paths and the fields the ruleset depends on, as one buffer to compare.
static char *profile_key(const struct widgethost_sandbox *sandbox, size_t *length) {
    size_t size = 5 * sizeof(int);
    for (int i = 0; i < sandbox->read_count; i++) size += strlen(sandbox->reads[i]) + 1;
    for (int i = 0; i < sandbox->write_count; i++) size += strlen(sandbox->writes[i]) + 1;
    char *key = malloc(size);
    if (key == NULL) return NULL;
    int fields[5] = {sandbox->abi_cap, sandbox->network, sandbox->required, sandbox->read_count, sandbox->write_count};
    memcpy(key, fields, sizeof fields);
    char *end = key + sizeof fields;
    for (int i = 0; i < sandbox->read_count; i++) end = stpcpy(end, sandbox->reads[i]) + 1;
    for (int i = 0; i < sandbox->write_count; i++) end = stpcpy(end, sandbox->writes[i]) + 1;
    *length = size;
    return key;
}

static int granted_count(const struct widgethost_sandbox *sandbox) {
    int count = sandbox->write_count;
    for (int i = 0; i < sandbox->read_count; i++)
        if (strcmp(sandbox->reads[i], "/proc/self") != 0) count++;
    return count;
}

/// Whether each path still names what it named when `identities` were noted.
static int still_names(const struct widgethost_sandbox *sandbox, const struct path_identity *identities) {
    int at = 0;
    for (int i = 0; i < sandbox->read_count + sandbox->write_count; i++) {
        const char *path = i < sandbox->read_count ? sandbox->reads[i] : sandbox->writes[i - sandbox->read_count];
        if (i < sandbox->read_count && strcmp(path, "/proc/self") == 0) continue;
        const struct path_identity *identity = &identities[at++];
        struct stat info;
        if (identity->unusable) return 0;
        if (stat(path, &info) != 0) {
            if (!(identity->absent && (errno == ENOENT || errno == ENOTDIR))) return 0;
        } else if (identity->absent || info.st_dev != identity->device || info.st_ino != identity->inode) {
            return 0;
        }
    }
    return 1;
}

int sandbox_ruleset(const struct widgethost_sandbox *sandbox, struct widgethost_spawn_failure *failure,
    unsigned *restrict_flags, uint64_t *proc_self_access) {
    size_t length;
    char *key = profile_key(sandbox, &length);
    int ruleset = -1;
    struct path_identity *identities = NULL;
    if (key != NULL) {
        pthread_mutex_lock(&prepared_lock);
        for (int i = 0; i < PREPARED_MAX; i++) {
            struct prepared *entry = &prepared[i];
            if (entry->profile == NULL || entry->ruleset < 0 || entry->length != length || memcmp(entry->profile, key, length) != 0) continue;
            ruleset = entry->ruleset;
            *restrict_flags = entry->restrict_flags;
            *proc_self_access = entry->proc_self_access;
            identities = entry->identities;
            entry->ruleset = -1;
            entry->identities = NULL;
            entry->used = ++prepared_clock;
            break;
        }
        pthread_mutex_unlock(&prepared_lock);
        free(key);
    }
    if (ruleset >= 0) {
        int same = still_names(sandbox, identities);
        free(identities);
        if (same) {
            __atomic_add_fetch(&prepared_taken, 1, __ATOMIC_RELAXED);
            return ruleset;
        }
        close(ruleset);
    }
    return make_ruleset(sandbox, failure, restrict_flags, proc_self_access, NULL);
}

void sandbox_ruleset_prepare_next(const struct widgethost_sandbox *sandbox) {
    size_t length;
    char *key = profile_key(sandbox, &length);
    struct path_identity *identities = calloc((size_t)granted_count(sandbox) + 1, sizeof *identities);
    struct widgethost_spawn_failure failure;
    memset(&failure, 0, sizeof failure);
    unsigned restrict_flags = 0;
    uint64_t proc_self_access = 0;
    int ruleset = key != NULL && identities != NULL
        ? make_ruleset(sandbox, &failure, &restrict_flags, &proc_self_access, identities) : -1;
    if (ruleset < 0) {
        free(key);
        free(identities);
        return;
    }
    int closed = -1;
    pthread_mutex_lock(&prepared_lock);
    struct prepared *slot = NULL;
    for (int i = 0; i < PREPARED_MAX && slot == NULL; i++)
        if (prepared[i].profile != NULL && prepared[i].length == length && memcmp(prepared[i].profile, key, length) == 0)
            slot = &prepared[i];
    if (slot != NULL && slot->ruleset >= 0) {
        // Another spawn of the profile made one meanwhile: keep that.
        closed = ruleset;
    } else {
        if (slot == NULL) {
            slot = &prepared[0];
            for (int i = 0; i < PREPARED_MAX; i++) {
                if (prepared[i].profile == NULL) { slot = &prepared[i]; break; }
                if (prepared[i].used < slot->used) slot = &prepared[i];
            }
            closed = slot->profile != NULL ? slot->ruleset : -1;
            free(slot->profile);
            free(slot->identities);
            slot->profile = key;
            slot->length = length;
            key = NULL;
        }
        slot->ruleset = ruleset;
        slot->restrict_flags = restrict_flags;
        slot->proc_self_access = proc_self_access;
        slot->identities = identities;
        identities = NULL;
        slot->used = ++prepared_clock;
    }
    pthread_mutex_unlock(&prepared_lock);
    if (closed >= 0) close(closed);
    free(key);
    free(identities);
}

unsigned long widgethost_prepared_rulesets_taken(void) {
    return __atomic_load_n(&prepared_taken, __ATOMIC_RELAXED);
}
