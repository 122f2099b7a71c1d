/* fileio.c - reading and writing the files the user names, safely:
 * reads take regular files only (a FIFO would block, a directory is not a
 * file); writes go to a temporary file next to the target, then rename,
 * keeping the target's mode and writing through a symlink to its target,
 * refusing a read-only target, and failing loudly (never an empty file
 * reported as saved). A crash can leave a temporary file behind: the next
 * save of the same file, or loading it, removes those of dead processes. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"
#include "pathguard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

char *sm_read_file(const char *path, size_t max_bytes, size_t *len, sm_err *e)
{
    /* "-" is standard input, no file: no path to confine. */
    if (strcmp(path, "-") == 0) return read_stdin(max_bytes, len, e);
    if (sm_path_check(path, SM_PATH_READ, e)) return NULL;
    /* Non-blocking open, then a regular file only: a FIFO or a device
     * would wait forever, a directory is not a file. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        sm_err_set(e, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        sm_err_set(e, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        sm_err_set(e, "%s: not a regular file (%s)", path,
                   S_ISDIR(st.st_mode) ? "a directory"
                   : S_ISFIFO(st.st_mode) ? "a FIFO"
                   : "a device or socket");
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        sm_err_set(e, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = sm_xmalloc(cap + 1);
    for (;;) {
        if (n == cap) {
            if (cap >= max_bytes) {
                sm_err_set(e, "%s: file larger than %zu bytes", path,
                           max_bytes);
                free(buf);
                fclose(f);
                return NULL;
            }
            cap *= 2;
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

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void sm_clean_stale_temps(const char *path)
{
    sm_err ignored;
    if (sm_path_check(path, SM_PATH_WRITE, &ignored)) return;   /* not ours to tidy */
    char *dir = sm_dirname(path);
    const char *base = base_of(path);
    size_t n = strlen(base) + sizeof TMP_TAG + 2;
    char *prefix = sm_xmalloc(n);
    snprintf(prefix, n, ".%s%s", base, TMP_TAG);
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        size_t pl = strlen(prefix);
        while ((de = readdir(d)) != NULL) {
            if (strncmp(de->d_name, prefix, pl) != 0) continue;
            long pid = strtol(de->d_name + pl, NULL, 10);
            /* A live process may be writing it right now. */
            if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM)) continue;
            char *victim = sm_path_join(dir, de->d_name);
            unlink(victim);
            free(victim);
        }
        closedir(d);
    }
    free(prefix);
    free(dir);
}

/* Where the bytes go: through a symlink (however many) to its target,
 * which need not exist yet. */
static char *resolve_target(const char *path)
{
    char *cur = sm_xstrdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        char buf[PATH_MAX];
        ssize_t k = readlink(cur, buf, sizeof buf - 1);
        if (k < 0) return cur;
        buf[k] = '\0';
        char *dir = sm_dirname(cur);
        char *next = sm_path_join(dir, buf);
        free(dir);
        free(cur);
        cur = next;
    }
    return cur;
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
    if (sm_path_check(path, SM_PATH_WRITE, e)) return -1;
    char *target = resolve_target(path);
    struct stat st;
    int exists = stat(target, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        /* A FIFO with no reader would block forever, a device is not a
         * file to save in: a save writes a regular file or a new path. */
        describe_not_regular(e, path, st.st_mode);
        free(target);
        return -1;
    }
    if (exists && !(st.st_mode & 0222)) {
        sm_err_set(e, "%s: read-only file, not overwritten (chmod u+w to allow)", path);
        free(target);
        return -1;
    }
    sm_clean_stale_temps(target);
    char *dir = sm_dirname(target);
    size_t n = strlen(target) + sizeof TMP_TAG + 32;
    char *tmp = sm_xmalloc(n);
    snprintf(tmp, n, "%s/.%s%s%ld.XXXXXX", dir, base_of(target), TMP_TAG, (long)getpid());
    free(dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        sm_err_set(e, "%s: cannot create a temporary file beside it: %s", path,
                   strerror(errno));
        free(tmp);
        free(target);
        return -1;
    }
    mode_t mode;
    if (exists) mode = st.st_mode & 07777;
    else {
        mode_t um = umask(0);
        umask(um);
        mode = 0666 & ~um;
    }
    int rc = -1;
    if (write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0 || fsync(fd) != 0) {
        sm_err_set(e, "%s: write failed: %s", path, strerror(errno));
        close(fd);
    } else if (close(fd) != 0) {
        sm_err_set(e, "%s: write failed: %s", path, strerror(errno));
    } else if (rename(tmp, target) != 0) {
        sm_err_set(e, "%s: cannot replace the file: %s", path, strerror(errno));
    } else {
        rc = 0;
    }
    if (rc) unlink(tmp);
    free(tmp);
    free(target);
    return rc;
}
