/* The GNU extensions of <spawn.h> that CSystem.h exposes. Source: posix_spawn(3). */
#define _GNU_SOURCE 1
#include <spawn.h>

#include "CSystem.h"

short perch_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }
