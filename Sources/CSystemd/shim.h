// libsystemd (Debian: libsystemd-dev) and the Linux descriptors the systemd adapter in
// WidgetHostDaemon uses: sd_notify / sd_watchdog_enabled / sd_listen_fds_with_names,
// sd_journal_sendv, timerfd (wall-clock jumps) and inotify (time-zone changes).
#ifndef WIDGETHOST_CSYSTEMD_SHIM_H
#define WIDGETHOST_CSYSTEMD_SHIM_H

#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>

#endif
