/*
 * CSystem.h: C library values that Swift's Glibc module leaves out because they are GNU
 * extensions, as computed by the C compiler (see spawn.c).
 */
#ifndef PERCH_CSYSTEM_H
#define PERCH_CSYSTEM_H

/* The posix_spawnattr_setflags(3) flag POSIX_SPAWN_SETSID (glibc 2.26 and later): the child
 * calls setsid(2), starting a new session with no controlling terminal. */
short perch_spawn_setsid_flag(void);

#endif
