/* The GNU extensions of <spawn.h> that CSystem.h exposes. Source: posix_spawn(3). */
#define _GNU_SOURCE 1
#include <spawn.h>
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "CSystem.h"

short perch_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int perch_spawn_add_foreground(posix_spawn_file_actions_t *actions, int fd) {
    return posix_spawn_file_actions_addtcsetpgrp_np(actions, fd);
}

int perch_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}
