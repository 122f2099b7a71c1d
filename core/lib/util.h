/* util.h - allocation, error messages and small helpers shared by core/. */
#ifndef SM_UTIL_H
#define SM_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Errors travel up as a message buffer; the first module to fail writes it. */
typedef struct sm_err {
    char msg[1024];
    char code[48]; /* words after STENCILMAP in Tcl's errorCode ("" = the caller's) */
} sm_err;

void sm_err_set(sm_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same with an error code ("POPTA INFEASIBLE") for scripts to catch. */
void sm_err_set_code(sm_err *e, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prefix an existing message ("file: " + msg). */
void sm_err_prefix(sm_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void *sm_xmalloc(size_t n);
void *sm_xcalloc(size_t n, size_t size);
void *sm_xrealloc(void *p, size_t n);
char *sm_xstrdup(const char *s);
/* Bytes this thread has asked the three above for (sm_xrealloc counts its
 * new size), so a test can assert that an operation copies nothing
 * proportional to the grid. */
size_t sm_alloc_bytes(void);

/* Whole file into memory (NUL-terminated), in one buffer of its size;
 * refuses files above max_bytes (SM_READ_ANY_SIZE: above the memory). */
char *sm_read_file(const char *path, size_t max_bytes, size_t *len, sm_err *e);
/* The same file (a regular file, beneath the path guard), given to fn a
 * piece at a time (at most 1 MB each), for a file of any size that need
 * not be held whole: fn returns non-zero to stop (returned). */
typedef int (*sm_piece_fn)(void *ctx, const char *data, size_t n);
int sm_read_file_pieces(const char *path, sm_piece_fn fn, void *ctx, sm_err *e);
/* (util_file_read.c; "-" is standard input.) Writing a file: atomic_file_write.h. */
/* Two instances (SPEC 5, util_file_changed_since_read.c): every regular file read and every
 * save is noted (device, inode, size, mtime by its real path); a save over
 * a file that changed on disk since this process read or last saved it
 * asks sm_file_changed_hook (the workbench's question; NULL in batch) and,
 * unless it answers 1, fails with code FILE CHANGED naming the file. */
struct stat;
void sm_filestate_note_read(const char *path, const struct stat *st);
void sm_filestate_note_saved(int dirfd, const char *name);
int sm_filestate_changed(int dirfd, const char *name, const struct stat *now);
/* A file many processes update by design (a study's manifest, which every
 * shard re-reads right before it writes the same SPEC) is not checked. */
void sm_filestate_forget(const char *path);
void sm_filestate_forget_all(void);
extern int (*sm_file_changed_hook)(const char *path);
/* Directory part of a path ("." when none), newly allocated. */
char *sm_dirname(const char *path);
/* Join dir and a relative path (absolute paths are returned as they are). */
char *sm_path_join(const char *dir, const char *rel);

/* Stable sort with an explicit context (no file-static comparator state, so
 * two evaluations can sort at once); cmp as qsort's, plus ctx. */
/* Why a name (a processor's, a state's) cannot be one, or NULL when it
 * can. Names are printable: no control characters (a newline or escape
 * would forge lines and screens), and never a whole
 * number in any notation Tcl reads as an integer ("1", "01", "0x1f",
 * " 2 ", "-3"): wherever a command takes a name or an index, a whole
 * number is always an index. */
const char *sm_name_problem(const char *name);

typedef int (*sm_cmp_fn)(const void *a, const void *b, void *ctx);
void sm_sort_r(void *base, size_t n, size_t size, sm_cmp_fn cmp, void *ctx);

/* The cap of sm_read_file for the formats the program reads but never
 * writes, whose own limits keep them far below it: grid files, themes,
 * hwloc's XML. */
#define SM_MAX_FILE_BYTES (64u * 1024u * 1024u)
/* No fixed cap: every file the program writes, it reads back at any size
 * it accepts (scenario, mapping, part files, journals, topologies, which
 * a 4096-node level matrix takes past 64 MB, profiles, RUN.json,
 * study.json and results, recordings and scripts, plots). A file larger
 * than the machine's memory is refused before anything is allocated;
 * -limit-memory bounds the rest. */
#define SM_READ_ANY_SIZE SIZE_MAX

#endif
