#include <sys/sysinfo.h>

#include "CSpawn.h"

int widgethost_swap_in_use(void) {
    struct sysinfo info;
    if (sysinfo(&info) != 0) return 1;
    return info.totalswap != info.freeswap;
}
