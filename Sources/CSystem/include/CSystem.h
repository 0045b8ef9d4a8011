/*
 * CSystem.h: the GNU extensions of the C library that Swift's Glibc module leaves out, as
 * functions compiled with _GNU_SOURCE (see spawn.c). Source: posix_spawn(3) and glibc's
 * <spawn.h>.
 */
#ifndef PERCH_CSYSTEM_H
#define PERCH_CSYSTEM_H

#include <spawn.h>

/* The posix_spawnattr_setflags(3) flag POSIX_SPAWN_SETSID (glibc 2.26 and later): the child
 * calls setsid(2), starting a new session with no controlling terminal. */
short perch_spawn_setsid_flag(void);

/* Adds the file action posix_spawn_file_actions_addtcsetpgrp_np (glibc 2.35 and later): the
 * child's process group becomes the foreground process group of the terminal open on `fd`
 * before the program starts, so it may read from and write to that terminal. Returns 0 or an
 * errno value. */
int perch_spawn_add_foreground(posix_spawn_file_actions_t *actions, int fd);

/* pidfd_open(2) (Linux 5.3 and later): a descriptor that poll(2) reports readable once the
 * process `pid` has ended, so a wait for a child can have a timeout without polling. Returns the
 * descriptor (close-on-exec), or -1 with errno set (ENOSYS on older kernels). */
int perch_pidfd_open(int pid);

/* pipe2(2) with O_CLOEXEC (a GNU extension): both ends are close-on-exec from the start, so a
 * child spawned meanwhile by another thread never inherits them. Returns 0 or -1 with errno. */
int perch_pipe_cloexec(int fds[2]);

/* Sets `attributes` so that the child starts with no signal blocked and every catchable signal
 * at its default action (posix_spawnattr_setsigmask(3), posix_spawnattr_setsigdefault(3)):
 * nothing of Perch's handlers or masks reaches a hook or a tool. Returns the posix_spawn flags
 * to add (POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF). */
short perch_spawnattr_reset_signals(posix_spawnattr_t *attributes);

/* posix_spawn_file_actions_addchdir_np (glibc 2.29 and later): the child changes to `path`
 * before the program starts. Returns 0 or an errno value. */
int perch_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/* In a statically linked process, makes getpwuid(3) and getgrgid(3) read /etc/passwd and
 * /etc/group only (glibc's built-in `files` source, __nss_configure_lookup): a static glibc that
 * loads another source's module from /etc/nsswitch.conf (`files systemd`, Debian's default)
 * crashes with SIGSEGV when the uid is not in /etc/passwd. A user of another source (LDAP, sssd)
 * is then unknown: named by number, with no home from the database. Returns 1 when it applied,
 * 0 in a dynamically linked process, which it leaves alone. Call before any lookup. */
int perch_static_user_lookup_files_only(void);

/* Whether the file open as `fd` (when `fd` >= 0), else the one at `path`, has a POSIX access
 * control list beyond its mode bits: an extended attribute `system.posix_acl_access`
 * (acl(5); a file with no extended entries has none). 1 when it has, 0 otherwise. */
int perch_has_access_acl(int fd, const char *path);

#endif
