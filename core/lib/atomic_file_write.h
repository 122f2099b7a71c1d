/* atomic_file_write.h - saving a file atomically (atomic_file_write.c):
 * every file the program writes goes through here. Reading is util.h. */
#ifndef SM_ATOMIC_FILE_WRITE_H
#define SM_ATOMIC_FILE_WRITE_H

#include "util.h"

/* Write atomically (atomic_file_write.c): temporary file beside the target, fsync,
 * rename; keeps the target's mode, follows symlinks, refuses read-only
 * targets; devices (/dev/full) are written in place, errors reported. */
int sm_write_file_atomic(const char *path, const char *data, size_t len,
                         sm_err *e);
/* A save decided now and written later (possibly from another thread):
 * the directory it writes in, held open (beneath what the path guard
 * allows when it confines), and the file's name there. */
typedef struct sm_save_target {
    int dirfd;
    char *name;
    char *path;
} sm_save_target;
int sm_save_open(const char *path, sm_save_target *t, sm_err *e);
/* Atomically, as sm_write_file_atomic; may be called more than once. */
int sm_save_write(const sm_save_target *t, const char *data, size_t len, sm_err *e);
void sm_save_close(sm_save_target *t);

/* The path "-" is standard input for sm_read_file and standard output for
 * sm_write_file_atomic (every file argument takes it). Output goes through
 * the hook when set (the program's own buffered stdout; it may refuse, in
 * the workbench), else straight to file descriptor 1. */
typedef int (*sm_stdout_fn)(const char *data, size_t len, sm_err *e);
extern sm_stdout_fn sm_stdout_hook;
/* Remove temporary files a crashed save of path left behind. */
void sm_clean_stale_temps(const char *path);
/* 0 when path may be saved to: a regular file (through symlinks) or not
 * there yet. A FIFO, device, socket or directory is an error naming it. */
int sm_check_save_target(const char *path, sm_err *e);

#endif
