/* util_file_read.c - reading the files the user names, safely: regular
 * files only (a FIFO would block, a directory is not a file), beneath the
 * path guard; "-" is standard input. Declared in util.h; writing is
 * atomic_file_write.c. */
#define _GNU_SOURCE   /* O_PATH */
#include "util.h"
#include "path_guard_enforces_allowed_dirs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "-": standard input, read to its end (up to max_bytes). */
static char *read_stdin(size_t max_bytes, size_t *len, sm_err *e)
{
    size_t cap = 4096, n = 0;
    char *buf = sm_xmalloc(cap + 1);
    for (;;) {
        if (n == cap) {
            if (cap >= max_bytes) {
                sm_err_set(e, "- (standard input): more than %zu bytes", max_bytes);
                free(buf);
                return NULL;
            }
            cap *= 2;
            buf = sm_xrealloc(buf, cap + 1);
        }
        ssize_t got = read(0, buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            sm_err_set(e, "- (standard input): read error: %s", strerror(errno));
            free(buf);
            return NULL;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* A regular file opened for reading, beneath what the path guard allows;
 * -1 with e set. The read is noted (two instances, util_file_changed_since_read.c). */
static int open_regular(const char *path, struct stat *st, sm_err *e)
{
    /* Non-blocking open, then a regular file only: a FIFO or a device
     * would wait forever, a directory is not a file. Opened beneath the
     * directory the guard allows, not by the name it checked. */
    int fd = sm_path_open(path, SM_PATH_READ, O_RDONLY | O_NONBLOCK, 0, e);
    if (fd < 0) return -1;
    if (fstat(fd, st) != 0) {
        sm_err_set(e, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        sm_err_set(e, "%s: not a regular file (%s)", path,
                   S_ISDIR(st->st_mode) ? "a directory"
                   : S_ISFIFO(st->st_mode) ? "a FIFO"
                   : "a device or socket");
        close(fd);
        return -1;
    }
    sm_filestate_note_read(path, st);
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

int sm_read_file_pieces(const char *path, sm_piece_fn fn, void *ctx, sm_err *e)
{
    if (strcmp(path, "-") == 0) {
        sm_err_set(e, "- (standard input): expected a file");
        return -1;
    }
    struct stat st;
    int fd = open_regular(path, &st, e);
    if (fd < 0) return -1;
    enum { PIECE = 1 << 20 };
    char *buf = sm_xmalloc(PIECE);
    int rc = 0;
    for (;;) {
        ssize_t got = read(fd, buf, PIECE);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            sm_err_set(e, "%s: read error: %s", path, strerror(errno));
            rc = -1;
            break;
        }
        if (got == 0) break;
        if ((rc = fn(ctx, buf, (size_t)got)) != 0) break;
    }
    free(buf);
    close(fd);
    return rc;
}

char *sm_read_file(const char *path, size_t max_bytes, size_t *len, sm_err *e)
{
    /* "-" is standard input, no file: no path to confine. */
    if (strcmp(path, "-") == 0) return read_stdin(max_bytes, len, e);
    struct stat st;
    int fd = open_regular(path, &st, e);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        sm_err_set(e, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    /* One buffer of the file's size: no doubling copies of a file of
     * hundreds of megabytes. */
    uint64_t size = (uint64_t)st.st_size;
    if (max_bytes == SM_READ_ANY_SIZE) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        uint64_t mem = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
        if (size > mem) {
            sm_err_set_code(e, "MEMORY", "%s: file of %llu bytes, larger than this machine's memory (%llu bytes)",
                            path, (unsigned long long)size, (unsigned long long)mem);
            fclose(f);
            return NULL;
        }
    } else if (size > max_bytes) {
        sm_err_set(e, "%s: file larger than %zu bytes", path, max_bytes);
        fclose(f);
        return NULL;
    }
    size_t cap = (size_t)size + 1, n = 0;
    char *buf = sm_xmalloc(cap + 1);
    for (;;) {
        if (n == cap) {
            /* It grew while read. */
            if (cap >= max_bytes) {
                sm_err_set(e, "%s: file larger than %zu bytes", path,
                           max_bytes);
                free(buf);
                fclose(f);
                return NULL;
            }
            cap = cap > max_bytes / 2 ? max_bytes : cap * 2;
            buf = sm_xrealloc(buf, cap + 1);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        sm_err_set(e, "%s: read error", path);
        free(buf);
        return NULL;
    }
    if (n > max_bytes) {
        sm_err_set(e, "%s: file larger than %zu bytes", path, max_bytes);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}
