/* openat2_open_beneath_dir.c - opening a path below a directory without ever leaving it:
 * openat2 with RESOLVE_BENEATH where the kernel has it, else an openat
 * walk with O_NOFOLLOW. The path guard hands every confined open here
 * with the allowed directory it holds open, so a link swapped in after the
 * check cannot take the open outside. */
#define _GNU_SOURCE
#include "openat2_open_beneath_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int sm_beneath_walk_only;

#ifndef RESOLVE_NO_MAGICLINKS
#define RESOLVE_NO_MAGICLINKS 0x02
#endif
#ifndef RESOLVE_BENEATH
#define RESOLVE_BENEATH 0x08
#endif

/* struct open_how, as <linux/openat2.h> has it (not every libc ships it). */
struct sm_open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};

/* -2: the kernel has no openat2 (or a sandbox refuses it): walk instead. */
static int try_openat2(int dirfd, const char *rel, int flags, mode_t mode)
{
#ifdef SYS_openat2
    struct sm_open_how how = {
        .flags = (uint64_t)(unsigned)(flags | O_CLOEXEC),
        .mode = (flags & O_CREAT) ? (uint64_t)mode : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
    };
    for (int tries = 0; tries < 8; tries++) {
        long fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
        if (fd >= 0) return (int)fd;
        /* EAGAIN: a rename raced the lookup; the kernel asks to retry. */
        if (errno == EAGAIN) continue;
        if (errno == ENOSYS || errno == EPERM) return -2;
        return -1;
    }
    return -2;
#else
    (void)dirfd; (void)rel; (void)flags; (void)mode;
    return -2;
#endif
}

/* O_NOFOLLOW with O_DIRECTORY or O_PATH says ENOTDIR for a link: say
 * ELOOP, what it is. */
static int link_err(int dirfd, const char *comp, int err)
{
    struct stat sb;
    if (err == ENOTDIR && fstatat(dirfd, comp, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode))
        return ELOOP;
    return err;
}

/* One component at a time from dirfd, no symbolic link followed: the
 * paths handed here are already resolved, so a link on the way can only
 * have been put there since. */
static int walk(int dirfd, const char *rel, int flags, mode_t mode)
{
    char buf[PATH_MAX];
    if (strlen(rel) >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(buf, rel);
    int cur = dirfd;
    char *p = buf;
    for (;;) {
        char *slash = strchr(p, '/');
        if (slash) {
            *slash = '\0';
            char *q = slash + 1;
            while (*q == '/') q++;
            if (!*q) slash = NULL;   /* a trailing slash ends the path */
        }
        const char *comp = *p ? p : ".";
        if (strcmp(comp, "..") == 0) {
            if (cur != dirfd) close(cur);
            errno = EXDEV;
            return -1;
        }
        if (!slash) {
            int fd = openat(cur, comp, flags | O_NOFOLLOW | O_CLOEXEC, mode);
            int err = fd < 0 ? link_err(cur, comp, errno) : 0;
            if (cur != dirfd) close(cur);
            errno = err;
            return fd;
        }
        int next = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int err = next < 0 ? link_err(cur, comp, errno) : 0;
        if (cur != dirfd) close(cur);
        if (next < 0) {
            errno = err;
            return -1;
        }
        cur = next;
        p = slash + 1;
        while (*p == '/') p++;
    }
}

int sm_open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
    if (rel[0] == '/') {
        errno = EXDEV;
        return -1;
    }
    if (!*rel) rel = ".";
    if (!sm_beneath_walk_only) {
        int fd = try_openat2(dirfd, rel, flags, mode);
        if (fd != -2) return fd;
    }
    return walk(dirfd, rel, flags, mode);
}

int sm_beneath_escaped(int err)
{
    return err == EXDEV || err == ELOOP;
}
