/* fuzz_path_guard.c - sm_path_resolve on arbitrary paths, in a directory
 * with symlinks in and out, dangling, absolute, relative and looping.
 * Oracle: the result is absolute and clean (no ".", "..", "//" or
 * trailing "/"), and wherever the path exists it is exactly realpath(3)'s
 * answer: the guard checks the file the kernel will open. And the open
 * beneath a directory (core/lib/openat2_open_beneath_dir.h), both ways (openat2 and the
 * O_NOFOLLOW walk), of the same path from the sandbox's a/: whatever it
 * opens is a/ or below it. */
#define _GNU_SOURCE   /* O_PATH; realpath */
#include <limits.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "core/lib/openat2_open_beneath_dir.h"

static char dir[64];

/* The sandbox goes when the run ends. */
static void teardown(void)
{
    static const char *const made[] = {"zig", "dot", "a/b/dotdot", "self", "loop2", "loop1",
                                       "dangle", "rel", "abs", "a/up", "a/b/f", "out/f",
                                       "a/b", "out", "a", NULL};
    char p[128];
    for (int i = 0; made[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, made[i]);
        if (unlink(p) != 0) rmdir(p);
    }
    rmdir(dir);
}

static void setup(void)
{
    static int done;
    if (done) return;
    done = 1;
    snprintf(dir, sizeof dir, "/tmp/sm-fuzz-pathguard-%ld", (long)getpid());
    atexit(teardown);
    mkdir(dir, 0700);
    int here = open(".", O_RDONLY | O_DIRECTORY);
    if (here < 0 || chdir(dir) != 0) abort();
    mkdir("a", 0700);
    mkdir("a/b", 0700);
    mkdir("out", 0700);
    FILE *f = fopen("out/f", "w");
    if (f) fclose(f);
    f = fopen("a/b/f", "w");
    if (f) fclose(f);
    if (symlink("../out", "a/up") || symlink("/tmp", "abs") || symlink("a/b", "rel") ||
        symlink("nowhere/x", "dangle") || symlink("loop2", "loop1") || symlink("loop1", "loop2") ||
        symlink("self", "self") || symlink("..", "a/b/dotdot") || symlink(".", "dot") ||
        symlink("a/up/../a/b", "zig")) {
        /* Already there from an earlier input of this process. */
    }
    if (fchdir(here) != 0) abort();
    close(here);
}

static void check(const char *path, const char *r)
{
    if (r[0] != '/') abort();
    if (strstr(r, "//") || strstr(r, "/./") || strstr(r, "/../")) abort();
    size_t n = strlen(r);
    if (n > 1 && r[n - 1] == '/') abort();
    if (n >= 2 && strcmp(r + n - 2, "/.") == 0) abort();
    if (n >= 3 && strcmp(r + n - 3, "/..") == 0) abort();
    struct stat st;
    if (stat(path, &st) == 0) {
        char *real = realpath(path, NULL);
        if (real && strcmp(real, r) != 0) {
            fprintf(stderr, "resolve(%s) = %s, realpath = %s\n", path, r, real);
            abort();
        }
        free(real);
    }
}

/* Every fd sm_open_beneath gives from a/ is a/ or below it. */
static void check_beneath(const char *path)
{
    static char a_real[PATH_MAX];
    static int afd = -1;
    if (afd < 0) {
        char p[128];
        snprintf(p, sizeof p, "%s/a", dir);
        afd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
        char *r = realpath(p, NULL);
        if (afd < 0 || !r) abort();
        snprintf(a_real, sizeof a_real, "%s", r);
        free(r);
    }
    for (int walk = 0; walk < 2; walk++) {
        sm_beneath_walk_only = walk;
        int fd = sm_open_beneath(afd, path, O_PATH, 0);
        if (fd < 0) continue;
        char link[64], at[PATH_MAX];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t k = readlink(link, at, sizeof at - 1);
        close(fd);
        if (k < 0) abort();
        at[k] = '\0';
        size_t n = strlen(a_real);
        if (strncmp(at, a_real, n) != 0 || (at[n] != '\0' && at[n] != '/')) {
            fprintf(stderr, "open_beneath(a, %s)%s reached %s\n", path, walk ? " (walk)" : "", at);
            abort();
        }
    }
    sm_beneath_walk_only = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size > 2 * PATH_MAX) return 0;
    char *path = malloc(size + 1);
    memcpy(path, data, size);
    path[size] = '\0';   /* a path ends at its first NUL, as in C */
    /* Inside the sandbox for this input only: the caller's relative
     * paths (the corpus) stay valid. */
    int here = open(".", O_RDONLY | O_DIRECTORY);
    if (here < 0 || chdir(dir) != 0) abort();
    sm_err e;
    char *r = sm_path_resolve(path, &e);
    if (r) check(path, r);
    free(r);
    check_beneath(path);
    free(path);
    if (fchdir(here) != 0) abort();
    close(here);
    return 0;
}
