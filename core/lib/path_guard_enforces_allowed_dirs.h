/* path_guard_enforces_allowed_dirs.h - where a file access really goes, and the one check every
 * read and write of a named file passes (SPEC 5: a script under -safe
 * reads only below the allowed directories and writes only below the
 * current directory and each -allow DIR). core/ knows nothing of safe
 * interpreters: the program installs the policy as a guard function, and
 * sm_read_file, sm_write_file_atomic, sm_mkdir_p and the study directory
 * listing ask it before they open anything. */
#ifndef SM_PATH_GUARD_ENFORCES_ALLOWED_DIRS_H
#define SM_PATH_GUARD_ENFORCES_ALLOWED_DIRS_H

#include <sys/types.h>
#include "util.h"

/* The absolute path an access of `path` reaches: relative to the current
 * directory, every symlink followed (a dangling one to where it points,
 * since a write would create its target), `.` and `..` taken after the
 * symlink before them is resolved. Components that do not exist yet are
 * kept as written (there is nothing to follow). NULL with e set on a
 * symlink loop, an empty path or a path too long. Caller frees. */
char *sm_path_resolve(const char *path, sm_err *e);
/* 1 when resolved path p is dir or below it (both resolved). */
int sm_path_below(const char *p, const char *dir);

enum { SM_PATH_READ = 0, SM_PATH_WRITE = 1 };

/* What the guard allows: an access that stays below `dirfd`, a directory
 * the guard opened (the caller closes it), at `rel`, the resolved path
 * below it ("" for the directory itself). dirfd -1: no confinement, the
 * path is opened as given. Opening beneath the directory (openat2_open_beneath_dir.h), not
 * by the name that was checked, is what makes the check hold at the open:
 * a symbolic link swapped in meanwhile cannot lead the open outside. */
typedef struct sm_path_grant {
    int dirfd;
    char *rel;
} sm_path_grant;
void sm_path_grant_free(sm_path_grant *g);

/* The policy: 0 to allow (g filled), -1 (e set, naming the path) to
 * refuse. */
typedef int (*sm_path_guard_fn)(void *ctx, const char *path, int mode, sm_path_grant *g,
                                sm_err *e);
/* refused: told when an open finds that a granted path now leads outside
 * (so the program can report it as the policy's refusal). */
void sm_path_guard_set(sm_path_guard_fn fn, void (*refused)(void *ctx), void *ctx);
/* Asks the guard (0 when none is installed, or while suspended). For a
 * path handed to another program; files we open ourselves go through
 * sm_path_open / sm_path_open_dir. */
int sm_path_check(const char *path, int mode, sm_err *e);
/* The program's own reads (a theme found by name in its search path)
 * are not the script's: suspend the guard around them. Per thread. */
void sm_path_guard_suspend(void);
void sm_path_guard_resume(void);

/* open(path, flags, perm) for an access of this mode, asked of the guard
 * and opened beneath the directory it grants. -1 with e set ("PATH:
 * cannot open: REASON"). */
int sm_path_open(const char *path, int mode, int flags, mode_t perm, sm_err *e);
/* The directory where a save of path puts its bytes (through symbolic
 * links to their target, as a save writes) opened O_PATH, and the file's
 * name in it (*name, caller frees): what atomic saves and mkdir work
 * with (openat, renameat, mkdirat in that directory). -1 with e set. */
int sm_path_open_dir(const char *path, int mode, char **name, sm_err *e);

/* Removes the file at path (a write: asked of the guard, done by unlinkat
 * in the held parent, so a directory swapped for a link meanwhile cannot
 * make it remove a file outside). A final symbolic link is followed, as
 * a save would (the file removed is the one a save there writes). */
int sm_path_remove(const char *path, sm_err *e);

/* Tests: called between the guard's check and the open. */
extern void (*sm_path_race_hook)(const char *path);

#endif
