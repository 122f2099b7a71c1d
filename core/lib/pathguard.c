/* pathguard.c - resolving a path the way the kernel will (symlinks, `.`
 * and `..` component by component), and the guard every named file
 * passes before it is opened. */
#define _POSIX_C_SOURCE 200809L
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700   /* realpath */
#endif
#include "pathguard.h"

#include <errno.h>
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
static void *guard_ctx;
static _Thread_local int suspended;

void sm_path_guard_set(sm_path_guard_fn fn, void *ctx)
{
    guard = fn;
    guard_ctx = ctx;
}

int sm_path_check(const char *path, int mode, sm_err *e)
{
    if (!guard || suspended) return 0;
    return guard(guard_ctx, path, mode, e);
}

void sm_path_guard_suspend(void) { suspended++; }
void sm_path_guard_resume(void) { suspended--; }
