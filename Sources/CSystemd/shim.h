// libsystemd (Debian: libsystemd-dev) and the Linux descriptors the systemd adapter in
// WidgetHostDaemon uses: sd_notify / sd_watchdog_enabled / sd_listen_fds_with_names,
// sd_journal_sendv, signalfd (SIGTERM, SIGINT, SIGHUP), timerfd (wall-clock jumps) and
// inotify (time-zone changes); and posix_spawn's closefrom action for the extension spawner.
#ifndef WIDGETHOST_CSYSTEMD_SHIM_H
#define WIDGETHOST_CSYSTEMD_SHIM_H

#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <spawn.h>

// glibc ≥ 2.34 (Debian 12: 2.36) has this, but declares it only under _GNU_SOURCE, which
// Swift's Glibc module is not built with. The extension spawner uses it so that a child
// inherits nothing but its three pipes, whatever a library opened without O_CLOEXEC.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

#endif
