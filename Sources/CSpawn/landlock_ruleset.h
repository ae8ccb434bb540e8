// The Landlock ruleset of a confined spawn (landlock_ruleset.c, docs/security.md).
#ifndef WIDGETHOST_LANDLOCK_RULESET_H
#define WIDGETHOST_LANDLOCK_RULESET_H

#include <stdint.h>

#include "CSpawn.h"

/// A rule that cannot be applied: with `required`, the spawn's failure (1); without, skipped (0).
int sandbox_missing(const struct widgethost_sandbox *sandbox, struct widgethost_spawn_failure *failure,
    const char *rule, const char *why);

/// The ruleset for one spawn of `sandbox` (close-on-exec; the spawn closes it), or -1: none
/// (the kernel has no Landlock, or a failure, which `failure->error` tells apart). The one made
/// ahead for this profile if every path still names what it named then, else a new one.
int sandbox_ruleset(const struct widgethost_sandbox *sandbox, struct widgethost_spawn_failure *failure,
    unsigned *restrict_flags, uint64_t *proc_self_access);

/// Makes the ruleset the next spawn of `sandbox` will use (`widgethost_prepare_ruleset`).
void sandbox_ruleset_prepare_next(const struct widgethost_sandbox *sandbox);

#endif
