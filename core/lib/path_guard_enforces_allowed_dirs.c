/* path_guard_enforces_allowed_dirs.c - resolving a path the way the kernel will (symlinks, `.`
 * and `..` component by component), and the guard every named file
 * passes before it is opened. */
#define _GNU_SOURCE   /* O_PATH */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700   /* realpath */
#endif
#include "path_guard_enforces_allowed_dirs.h"
#include "openat2_open_beneath_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40

/* Drop the last component of an absolute path ("/a/b" -> "/a", "/a" -> "/"). */
static void up(char *res)
{
    char *s = strrchr(res, '/');
    if (s == res) res[1] = '\0';
    else if (s) *s = '\0';
}

char *sm_path_resolve(const char *path, sm_err *e)
{
    if (!path || !*path) {
        sm_err_set(e, "empty file name");
        return NULL;
    }
    size_t plen = strlen(path);
    if (plen >= PATH_MAX) {
        sm_err_set(e, "%.200s...: file name too long", path);
        return NULL;
    }
    char res[PATH_MAX];
    if (path[0] == '/') {
        strcpy(res, "/");
    } else {
        char *cwd = realpath(".", NULL);
        if (!cwd) {
            sm_err_set(e, "%s: the current directory cannot be resolved: %s", path, strerror(errno));
            return NULL;
        }
        snprintf(res, sizeof res, "%s", cwd);
        free(cwd);
    }
    /* rest: the components still to walk (a symlink's target is put in
     * front of what followed it). */
    size_t cap = 2 * PATH_MAX + 2;
    char *rest = sm_xmalloc(cap);
    snprintf(rest, cap, "%s", path);
    int links = 0;
    char *p = rest;
    while (*p) {
        while (*p == '/') p++;
        if (!*p) break;
        char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char comp[NAME_MAX + 2];
        if (n > NAME_MAX) {
            sm_err_set(e, "%.200s: a file name component is too long", path);
            free(rest);
            return NULL;
        }
        memcpy(comp, p, n);
        comp[n] = '\0';
        p += n;
        if (strcmp(comp, ".") == 0) continue;
        if (strcmp(comp, "..") == 0) {
            up(res);
            continue;
        }
        size_t rl = strlen(res);
        if (rl + 1 + n >= sizeof res) {
            sm_err_set(e, "%.200s: file name too long once resolved", path);
            free(rest);
            return NULL;
        }
        if (rl > 1) res[rl++] = '/';
        memcpy(res + rl, comp, n + 1);
        struct stat st;
        /* A component that does not exist (yet) is kept as written: what
         * creates it makes a directory or file, never a symlink. */
        if (lstat(res, &st) != 0 || !S_ISLNK(st.st_mode)) continue;
        if (++links > MAX_LINKS) {
            sm_err_set(e, "%.200s: too many levels of symbolic links", path);
            free(rest);
            return NULL;
        }
        char target[PATH_MAX];
        ssize_t k = readlink(res, target, sizeof target - 1);
        if (k <= 0) {
            sm_err_set(e, "%.200s: cannot read a symbolic link on the way: %s", path,
                       k < 0 ? strerror(errno) : "empty");
            free(rest);
            return NULL;
        }
        target[k] = '\0';
        up(res);
        if (target[0] == '/') strcpy(res, "/");
        size_t left = strlen(p);
        if ((size_t)k + left + 2 > cap) {
            sm_err_set(e, "%.200s: file name too long once resolved", path);
            free(rest);
            return NULL;
        }
        /* The target, then what followed the link. */
        char *next = sm_xmalloc(cap);
        snprintf(next, cap, "%s/%s", target, p);
        free(rest);
        rest = next;
        p = rest;
    }
    free(rest);
    return sm_xstrdup(res);
}

int sm_path_below(const char *p, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/') return p[0] == '/';
    return strncmp(p, dir, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

static sm_path_guard_fn guard;
static void (*guard_refused)(void *ctx);
static void *guard_ctx;
static _Thread_local int suspended;
void (*sm_path_race_hook)(const char *path);

void sm_path_guard_set(sm_path_guard_fn fn, void (*refused)(void *ctx), void *ctx)
{
    guard = fn;
    guard_refused = refused;
    guard_ctx = ctx;
}

void sm_path_grant_free(sm_path_grant *g)
{
    if (g->dirfd >= 0) close(g->dirfd);
    free(g->rel);
    g->dirfd = -1;
    g->rel = NULL;
}

/* Asks the guard; an unconfined access gets dirfd -1. */
static int ask(const char *path, int mode, sm_path_grant *g, sm_err *e)
{
    g->dirfd = -1;
    g->rel = NULL;
    if (!guard || suspended) return 0;
    if (guard(guard_ctx, path, mode, g, e)) {
        sm_path_grant_free(g);
        return -1;
    }
    return 0;
}

int sm_path_check(const char *path, int mode, sm_err *e)
{
    sm_path_grant g;
    if (ask(path, mode, &g, e)) return -1;
    sm_path_grant_free(&g);
    return 0;
}

void sm_path_guard_suspend(void) { suspended++; }
void sm_path_guard_resume(void) { suspended--; }

/* The grant is the path resolved component by component, where `..`
 * after a name that is not a directory (or not there) simply drops it;
 * the kernel refuses such a path. Opening the grant must not open more
 * than the path names: every `.` or `..` (and a trailing `/`) must follow
 * a directory, as the kernel checks. A race here can only refuse more:
 * the open itself stays beneath the granted directory. */
static int walkable(const char *path, sm_err *e)
{
    size_t n = strlen(path);
    char *pre = sm_xmalloc(n + 2);
    int rc = 0;
    for (size_t i = 0; i <= n && rc == 0; i++) {
        /* The end of a component that is "." or "..", or a trailing "/". */
        int dots = 0;
        if (i < n && path[i] == '.' && (i == 0 || path[i - 1] == '/')) {
            size_t j = i;
            while (j < n && path[j] == '.') j++;
            if ((j - i == 1 || j - i == 2) && (j == n || path[j] == '/')) dots = 1;
        }
        int trailing = i == n && n > 1 && path[n - 1] == '/';
        if (!dots && !trailing) continue;
        size_t k = trailing ? n : i;
        memcpy(pre, path, k);
        pre[k] = '\0';
        if (!*pre) continue;                   /* "./x", "../x": the cwd itself */
        struct stat st;
        if (stat(pre, &st) != 0) {
            sm_err_set(e, "%.400s: cannot open: %s", path, strerror(errno));
            rc = -1;
        } else if (!S_ISDIR(st.st_mode)) {
            sm_err_set(e, "%.400s: cannot open: %s", path, strerror(ENOTDIR));
            rc = -1;
        }
    }
    free(pre);
    return rc;
}

/* An open beneath the granted directory failed: a link that leads
 * outside now is the policy's refusal, told as such. */
static void open_failed(const char *path, const sm_path_grant *g, int err, sm_err *e)
{
    if (g->dirfd >= 0 && sm_beneath_escaped(err)) {
        sm_err_set(e, "%.400s: refused: the path changed after it was checked (a symbolic link "
                   "on it now leads outside the allowed directories); nothing was opened", path);
        if (guard_refused) guard_refused(guard_ctx);
        return;
    }
    sm_err_set(e, "%.400s: cannot open: %s", path, strerror(err));
}

int sm_path_open(const char *path, int mode, int flags, mode_t perm, sm_err *e)
{
    sm_path_grant g;
    if (ask(path, mode, &g, e)) return -1;
    if (g.dirfd >= 0 && walkable(path, e)) {
        sm_path_grant_free(&g);
        return -1;
    }
    if (sm_path_race_hook) sm_path_race_hook(path);
    int fd = g.dirfd >= 0 ? sm_open_beneath(g.dirfd, g.rel, flags, perm)
                          : open(path, flags | O_CLOEXEC, perm);
    if (fd < 0) open_failed(path, &g, errno, e);
    sm_path_grant_free(&g);
    return fd;
}

/* Where the bytes of a save of path go: through symbolic links (however
 * many, up to the kernel's 40) to their target, which need not exist. */
static char *save_target(const char *path)
{
    char *cur = sm_xstrdup(path);
    for (int hops = 0; hops < MAX_LINKS; hops++) {
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

/* "a/b/c" -> dir "a/b", name "c"; "c" -> "", "c". */
static void split_last(const char *p, char **dir, char **name)
{
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/') n--;
    size_t k = n;
    while (k > 0 && p[k - 1] != '/') k--;
    *name = sm_xmalloc(n - k + 1);
    memcpy(*name, p + k, n - k);
    (*name)[n - k] = '\0';
    size_t d = k;
    while (d > 1 && p[d - 1] == '/') d--;
    *dir = sm_xmalloc(d + 1);
    memcpy(*dir, p, d);
    (*dir)[d] = '\0';
}

int sm_path_open_dir(const char *path, int mode, char **name, sm_err *e)
{
    *name = NULL;
    sm_path_grant g;
    if (ask(path, mode, &g, e)) return -1;
    if (g.dirfd >= 0 && walkable(path, e)) {
        sm_path_grant_free(&g);
        return -1;
    }
    if (sm_path_race_hook) sm_path_race_hook(path);
    /* Confined, the guard resolved the links already (rel is the target);
     * else they are followed here. */
    char *target = g.dirfd >= 0 ? sm_xstrdup(g.rel) : save_target(path);
    char *dir;
    split_last(target, &dir, name);
    free(target);
    int fd = -1;
    if (!**name || strcmp(*name, ".") == 0 || strcmp(*name, "..") == 0 || strcmp(*name, "/") == 0) {
        sm_err_set(e, "%.400s: a directory, not a file name", path);
    } else {
        const char *d = *dir ? dir : ".";
        fd = g.dirfd >= 0 ? sm_open_beneath(g.dirfd, *dir ? dir : "", O_PATH | O_DIRECTORY, 0)
                          : open(d, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) open_failed(path, &g, errno, e);
    }
    free(dir);
    sm_path_grant_free(&g);
    if (fd < 0) {
        free(*name);
        *name = NULL;
    }
    return fd;
}

int sm_path_remove(const char *path, sm_err *e)
{
    char *name;
    int dfd = sm_path_open_dir(path, SM_PATH_WRITE, &name, e);
    if (dfd < 0) return -1;
    int rc = unlinkat(dfd, name, 0);
    if (rc != 0) sm_err_set(e, "%.400s: cannot remove: %s", path, strerror(errno));
    free(name);
    close(dfd);
    return rc;
}
