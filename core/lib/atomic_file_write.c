/* atomic_file_write.c - writing the files the user names, atomically:
 * to a temporary file next to the target, fsync, then rename, keeping
 * the target's mode and writing through a symlink to its target,
 * refusing a read-only target, and failing loudly (never an empty file
 * reported as saved). A crash can leave a temporary file behind: the next
 * save of the same file, or loading it, removes those of dead processes. */
#define _GNU_SOURCE   /* O_PATH */
#include "atomic_file_write.h"
#include "path_guard_enforces_allowed_dirs.h"

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
