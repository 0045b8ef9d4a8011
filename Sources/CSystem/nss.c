/*
 * nss.c: the user database without loadable name-service modules in a static executable.
 * Source: glibc's <nss.h> (__nss_configure_lookup) and getauxval(3) (AT_BASE).
 */
#include <nss.h>
#include <sys/auxv.h>

#include "CSystem.h"

int perch_static_user_lookup_files_only(void) {
    /* A dynamically linked process has a program interpreter, loaded at AT_BASE. */
    if (getauxval(AT_BASE) != 0) return 0;
    __nss_configure_lookup("passwd", "files");
    __nss_configure_lookup("group", "files");
    return 1;
}
