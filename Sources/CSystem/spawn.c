/* The GNU extensions of <spawn.h> that CSystem.h exposes. Source: posix_spawn(3). */
#define _GNU_SOURCE 1
#include <spawn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

int perch_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

short perch_spawnattr_reset_signals(posix_spawnattr_t *attributes) {
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(attributes, &none);
    posix_spawnattr_setsigdefault(attributes, &all);
    return POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
}

int perch_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

#include <sys/xattr.h>

int perch_has_access_acl(int fd, const char *path) {
    ssize_t size = fd >= 0 ? fgetxattr(fd, "system.posix_acl_access", NULL, 0) : getxattr(path, "system.posix_acl_access", NULL, 0);
    return size > 0 ? 1 : 0;
}
