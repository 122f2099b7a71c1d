/* openat2_open_beneath_dir.h - opening a path that must stay below a directory whatever
 * happens to the tree meanwhile (a symbolic link swapped in between a
 * check and the open). */
#ifndef SM_OPENAT2_OPEN_BENEATH_DIR_H
#define SM_OPENAT2_OPEN_BENEATH_DIR_H

#include <sys/types.h>

/* openat(dirfd, rel, flags, mode), except that the path is resolved
 * beneath dirfd: the kernel's openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_MAGICLINKS) where it has one (Linux >= 5.6), else a walk of
 * openat calls, one component at a time, that follows no symbolic link.
 * An absolute rel, a `..`, or a link that leads out fails (EXDEV from the
 * kernel, ELOOP or ENOTDIR from the walk). "" is dirfd itself. O_CLOEXEC
 * is added. -1 with errno set on failure. */
int sm_open_beneath(int dirfd, const char *rel, int flags, mode_t mode);

/* 1 when errno from sm_open_beneath means "that path now leads outside"
 * (as opposed to: not there, no permission). */
int sm_beneath_escaped(int err);

/* Tests: 1 forces the openat walk even where openat2 exists. */
extern int sm_beneath_walk_only;

#endif
