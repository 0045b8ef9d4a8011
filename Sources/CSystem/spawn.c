/* The GNU extensions of <spawn.h> that CSystem.h exposes. Source: posix_spawn(3). */
#define _GNU_SOURCE 1
#include <spawn.h>

#include "CSystem.h"

short perch_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int perch_spawn_add_foreground(posix_spawn_file_actions_t *actions, int fd) {
    return posix_spawn_file_actions_addtcsetpgrp_np(actions, fd);
}
