/* util_file_read_and_atomic_write.c - reading and writing the files the user names, safely:
 * reads take regular files only (a FIFO would block, a directory is not a
 * file); writes go to a temporary file next to the target, then rename,
 * keeping the target's mode and writing through a symlink to its target,
 * refusing a read-only target, and failing loudly (never an empty file
 * reported as saved). A crash can leave a temporary file behind: the next
 * save of the same file, or loading it, removes those of dead processes. */
#define _GNU_SOURCE   /* O_PATH */
#include "util.h"
#include "path_guard_allowed_dirs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

sm_stdout_fn sm_stdout_hook;

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

/* Temporary files are ".NAME.sm-tmp.PID.XXXXXX" beside NAME. */
#define TMP_TAG ".sm-tmp."

/* Removes NAME's temporaries of dead processes from directory dfd. */
static void clean_temps_in(int dfd, const char *name)
{
    size_t n = strlen(name) + sizeof TMP_TAG + 2;
    char *prefix = sm_xmalloc(n);
    snprintf(prefix, n, ".%s%s", name, TMP_TAG);
    int rfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = rfd >= 0 ? fdopendir(rfd) : NULL;
    if (!d && rfd >= 0) close(rfd);
    if (d) {
        struct dirent *de;
        size_t pl = strlen(prefix);
        while ((de = readdir(d)) != NULL) {
            if (strncmp(de->d_name, prefix, pl) != 0) continue;
            long pid = strtol(de->d_name + pl, NULL, 10);
            /* A live process may be writing it right now. */
            if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM)) continue;
            unlinkat(dfd, de->d_name, 0);
        }
        closedir(d);
    }
    free(prefix);
}

void sm_clean_stale_temps(const char *path)
{
    sm_err ignored;
    char *name;
    /* Only where a save may write: not ours to tidy otherwise. */
    int dfd = sm_path_open_dir(path, SM_PATH_WRITE, &name, &ignored);
    if (dfd < 0) return;
    clean_temps_in(dfd, name);
    free(name);
    close(dfd);
}

static int write_all(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

static void describe_not_regular(sm_err *e, const char *path, mode_t m)
{
    sm_err_set(e, "%s: not a regular file (%s); saves write only regular files or new paths", path,
               S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
               : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a file");
}

int sm_check_save_target(const char *path, sm_err *e)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        describe_not_regular(e, path, st.st_mode);
        return -1;
    }
    return 0;
}

int sm_write_file_atomic(const char *path, const char *data, size_t len,
                         sm_err *e)
{
    if (strcmp(path, "-") == 0) {
        if (sm_stdout_hook) return sm_stdout_hook(data, len, e);
        fflush(stdout);
        if (write_all(1, data, len) != 0) {
            sm_err_set(e, "- (standard output): write failed: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    sm_save_target t;
    if (sm_save_open(path, &t, e)) return -1;
    int rc = sm_save_write(&t, data, len, e);
    sm_save_close(&t);
    return rc;
}

int sm_save_open(const char *path, sm_save_target *t, sm_err *e)
{
    t->path = NULL;
    t->name = NULL;
    t->dirfd = sm_path_open_dir(path, SM_PATH_WRITE, &t->name, e);
    if (t->dirfd < 0) return -1;
    t->path = sm_xstrdup(path);
    return 0;
}

void sm_save_close(sm_save_target *t)
{
    if (t->dirfd >= 0) close(t->dirfd);
    free(t->name);
    free(t->path);
    t->dirfd = -1;
    t->name = t->path = NULL;
}

/* The directory the bytes go to (through symbolic links to their
 * target) is held open: the temporary file, the check of what is there
 * and the rename all happen in it, never by a name that could lead
 * elsewhere meanwhile. */
int sm_save_write(const sm_save_target *t, const char *data, size_t len, sm_err *e)
{
    int dfd = t->dirfd;
    const char *name = t->name, *path = t->path;
    struct stat st;
    int exists = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
    int rc = -1;
    char *tmp = NULL;
    if (exists && !S_ISREG(st.st_mode)) {
        /* A FIFO with no reader would block forever, a device is not a
         * file to save in: a save writes a regular file or a new path. A
         * link here was put in after the path was resolved. */
        if (S_ISLNK(st.st_mode))
            sm_err_set(e, "%s: changed while saving (a symbolic link appeared); not written", path);
        else
            describe_not_regular(e, path, st.st_mode);
        goto out;
    }
    if (exists && sm_filestate_changed(dfd, name, &st) &&
        !(sm_file_changed_hook && sm_file_changed_hook(path))) {
        sm_err_set_code(e, "FILE CHANGED",
                        "%s: changed on disk since this session read or last saved it (another "
                        "instance or program wrote it); not overwritten: load it again to take "
                        "those changes, or save under another name", path);
        goto out;
    }
    if (exists && !(st.st_mode & 0222)) {
        sm_err_set(e, "%s: read-only file, not overwritten (chmod u+w to allow)", path);
        goto out;
    }
    clean_temps_in(dfd, name);
    size_t n = strlen(name) + sizeof TMP_TAG + 40;
    tmp = sm_xmalloc(n);
    int fd = -1;
    /* mkstemp's job, in the held directory. */
    static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t r = (uint64_t)getpid() * 2654435761u ^ (uint64_t)(uintptr_t)tmp ^ (uint64_t)ts.tv_nsec;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        char suffix[7];
        for (int i = 0; i < 6; i++) {
            r = r * 6364136223846793005u + 1442695040888963407u;
            suffix[i] = abc[(r >> 33) % (sizeof abc - 1)];
        }
        suffix[6] = '\0';
        snprintf(tmp, n, ".%s%s%ld.%s", name, TMP_TAG, (long)getpid(), suffix);
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        sm_err_set(e, "%s: cannot create a temporary file beside it: %s", path,
                   strerror(errno));
        goto out;
    }
    mode_t mode;
    if (exists) mode = st.st_mode & 07777;
    else {
        mode_t um = umask(0);
        umask(um);
        mode = 0666 & ~um;
    }
    if (write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0 || fsync(fd) != 0) {
        sm_err_set(e, "%s: write failed: %s", path, strerror(errno));
        close(fd);
    } else if (close(fd) != 0) {
        sm_err_set(e, "%s: write failed: %s", path, strerror(errno));
    } else if (renameat(dfd, tmp, dfd, name) != 0) {
        sm_err_set(e, "%s: cannot replace the file: %s", path, strerror(errno));
    } else {
        rc = 0;
        sm_filestate_note_saved(dfd, name);
    }
    if (rc) unlinkat(dfd, tmp, 0);
out:
    free(tmp);
    return rc;
}
