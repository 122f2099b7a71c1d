/* pathguard.h - where a file access really goes, and the one check every
 * read and write of a named file passes (SPEC 5: a script under -safe
 * reads only below the allowed directories and writes only below the
 * current directory and each -allow DIR). core/ knows nothing of safe
 * interpreters: the program installs the policy as a guard function, and
 * sm_read_file, sm_write_file_atomic, sm_mkdir_p and the study directory
 * listing ask it before they open anything. */
#ifndef SM_PATHGUARD_H
#define SM_PATHGUARD_H

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
/* The policy: 0 to allow, -1 (e set, naming the path) to refuse. */
typedef int (*sm_path_guard_fn)(void *ctx, const char *path, int mode, sm_err *e);
void sm_path_guard_set(sm_path_guard_fn fn, void *ctx);
/* Asks the guard (0 when none is installed, or while suspended). */
int sm_path_check(const char *path, int mode, sm_err *e);
/* The program's own reads (a theme found by name in its search path)
 * are not the script's: suspend the guard around them. Per thread. */
void sm_path_guard_suspend(void);
void sm_path_guard_resume(void);

#endif
