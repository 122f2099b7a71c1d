/* test_path_guard_enforces_allowed_dirs.c - sm_path_resolve walks a path as the kernel will (a
 * symlink before `..` is followed first; a dangling symlink leads to where
 * a write would create the file; a loop is an error), and the guard is
 * asked by every reader and writer before anything is opened. */
#define _GNU_SOURCE   /* O_PATH */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/testutil.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "core/lib/openat2_open_beneath_dir.h"
#include "core/study/study_jobs_enumeration.h"
#include "core/lib/atomic_file_write.h"

static char root[128];

/* A sandbox: root/in/sub, root/out/f, links in/up -> ../out,
 * in/dangle -> ../out/new, in/loop <-> in/loop2, in/sub/back -> .. */
static int setup(void **st)
{
    (void)st;
    char tmpl[] = "/tmp/sm-pathguard-XXXXXX";
    if (!mkdtemp(tmpl)) return -1;
    char *r = realpath(tmpl, NULL);
    snprintf(root, sizeof root, "%s", r);
    free(r);
    char p[256], q[256];
    snprintf(p, sizeof p, "%s/in", root); mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/in/sub", root); mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/out", root); mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/out/f", root); close(open(p, O_CREAT | O_WRONLY, 0600));
    snprintf(p, sizeof p, "%s/in/up", root); if (symlink("../out", p)) return -1;
    snprintf(p, sizeof p, "%s/in/dangle", root); if (symlink("../out/new", p)) return -1;
    snprintf(p, sizeof p, "%s/in/loop", root); if (symlink("loop2", p)) return -1;
    snprintf(p, sizeof p, "%s/in/loop2", root); if (symlink("loop", p)) return -1;
    snprintf(p, sizeof p, "%s/in/sub/back", root); if (symlink("..", p)) return -1;
    snprintf(q, sizeof q, "%s/out", root);
    snprintf(p, sizeof p, "%s/in/abs", root); if (symlink(q, p)) return -1;
    snprintf(p, sizeof p, "%s/in", root);
    return chdir(p);
}

static int teardown(void **st)
{
    (void)st;
    if (chdir("/tmp")) return -1;
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd);
}

static void expect(const char *path, const char *rel_to_root)
{
    sm_err e;
    char *r = sm_path_resolve(path, &e);
    assert_non_null(r);
    char want[256];
    snprintf(want, sizeof want, "%s%s", root, rel_to_root);
    assert_string_equal(r, want);
    free(r);
}

static void resolves_like_the_kernel(void **st)
{
    (void)st;
    expect("up/f", "/out/f");                 /* a relative link out */
    expect("abs/f", "/out/f");                /* an absolute link out */
    expect("../out/f", "/out/f");             /* .. */
    expect("sub/back/up/f", "/out/f");        /* a link to .. then a link out */
    expect("up/../in/sub", "/in/sub");        /* .. after a link: from its target */
    expect("dangle", "/out/new");             /* a write would create the target */
    expect("sub/not/yet/../../x.json", "/in/sub/x.json");  /* not there yet: as written */
    expect("./sub//./x", "/in/sub/x");
    expect(".", "/in");
}

static void refuses_loops_and_empty(void **st)
{
    (void)st;
    sm_err e;
    assert_null(sm_path_resolve("loop/x", &e));
    assert_non_null(strstr(e.msg, "symbolic links"));
    assert_null(sm_path_resolve("", &e));
}

static void below_is_by_component(void **st)
{
    (void)st;
    assert_true(sm_path_below("/a/b", "/a"));
    assert_true(sm_path_below("/a", "/a"));
    assert_false(sm_path_below("/ab", "/a"));
    assert_true(sm_path_below("/x", "/"));
}

/* A guard that refuses everything and counts what it was asked. */
static int asked;
static int refuse(void *ctx, const char *path, int mode, sm_path_grant *g, sm_err *e)
{
    (void)ctx; (void)mode; (void)g;
    asked++;
    sm_err_set(e, "%s: refused", path);
    return -1;
}

static void readers_and_writers_ask_first(void **st)
{
    (void)st;
    sm_path_guard_set(refuse, NULL, NULL);
    asked = 0;
    sm_err e;
    size_t len;
    assert_null(sm_read_file("up/f", 1024, &len, &e));
    assert_int_equal(sm_write_file_atomic("dangle", "x", 1, &e), -1);
    assert_string_equal(e.msg, "dangle: refused");
    assert_int_equal(asked, 2);
    struct stat sb;
    char p[256];
    snprintf(p, sizeof p, "%s/out/new", root);
    assert_int_not_equal(stat(p, &sb), 0);    /* nothing was written */
    /* Suspended (the program's own reads): not asked. */
    sm_path_guard_suspend();
    char *t = sm_read_file("up/f", 1024, &len, &e);
    sm_path_guard_resume();
    assert_non_null(t);
    free(t);
    assert_int_equal(asked, 2);
    sm_path_guard_set(NULL, NULL, NULL);
}

/* ---- the check holds at the open (no check-then-open race) ----
 * A guard like the program's: accesses below the current directory
 * (root/in), granted as that directory held open and the resolved path
 * below it. The race hook runs between the check and the open and swaps
 * a symbolic link in, as another process could. */
static int refusals;
static int below_cwd(void *ctx, const char *path, int mode, sm_path_grant *g, sm_err *e)
{
    (void)ctx; (void)mode;
    char *r = sm_path_resolve(path, e);
    if (!r) return -1;
    char *cwd = realpath(".", NULL);
    int ok = sm_path_below(r, cwd);
    if (ok) {
        const char *rel = r + strlen(cwd);
        while (*rel == '/') rel++;
        g->dirfd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        g->rel = strdup(rel);
    } else {
        sm_err_set(e, "%s: outside", path);
    }
    free(cwd);
    free(r);
    return ok ? 0 : -1;
}
static void count_refusal(void *ctx) { (void)ctx; refusals++; }

/* What the hook swaps: `what` (under root/in) becomes a link to `to`. */
static const char *swap_what, *swap_to;
static int swapped;
static void swap_hook(const char *path)
{
    (void)path;
    char p[300], q[300];
    snprintf(p, sizeof p, "%s/in/%s", root, swap_what);
    snprintf(q, sizeof q, "%s/in/%s.moved", root, swap_what);
    if (rename(p, q) != 0 && unlink(p) != 0) { /* not there yet: just the link */ }
    assert_int_equal(symlink(swap_to, p), 0);
    swapped++;
}

static void put(const char *rel, const char *text)
{
    char p[300];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int exists(const char *rel)
{
    char p[300];
    struct stat sb;
    snprintf(p, sizeof p, "%s/%s", root, rel);
    return lstat(p, &sb) == 0;
}

static void race(const char *what, const char *to)
{
    swap_what = what;
    swap_to = to;
    swapped = 0;
    sm_path_race_hook = swap_hook;
}

static void race_cases(int walk_only, const char *tag)
{
    sm_beneath_walk_only = walk_only;
    sm_path_guard_set(below_cwd, count_refusal, NULL);
    refusals = 0;
    sm_err e;
    size_t len;
    char d[64], f[160], n[80];
    put("out/secret.json", "SECRET");

    /* A directory on the way swapped for a link out: the read that was
     * allowed must not read outside. */
    snprintf(d, sizeof d, "d%s", tag);
    snprintf(f, sizeof f, "in/%s", d);
    char p[300];
    snprintf(p, sizeof p, "%s/%s", root, f);
    assert_int_equal(mkdir(p, 0700), 0);
    snprintf(f, sizeof f, "in/%s/secret.json", d);
    put(f, "inside");
    race(d, "../out");
    snprintf(n, sizeof n, "%s/secret.json", d);
    char *t = sm_read_file(n, 1024, &len, &e);
    assert_int_equal(swapped, 1);
    if (t) fail_msg("%s: read through a swapped link: \"%s\"", tag, t);
    assert_non_null(strstr(e.msg, "changed after it was checked"));
    assert_int_equal(refusals, 1);

    /* A save into that directory: nothing written outside, no temporary
     * file left there. */
    race(d, "../out");
    snprintf(n, sizeof n, "%s/new.json", d);
    unlink(p);   /* the link of the last swap */
    snprintf(p, sizeof p, "%s/in/%s.moved", root, d);
    char back[300];
    snprintf(back, sizeof back, "%s/in/%s", root, d);
    assert_int_equal(rename(p, back), 0);
    assert_int_equal(sm_write_file_atomic(n, "x", 1, &e), -1);
    assert_int_equal(swapped, 1);
    assert_false(exists("out/new.json"));
    assert_int_equal(refusals, 2);

    /* The file itself swapped for a link out, read and write. */
    snprintf(n, sizeof n, "f%s.json", tag);
    snprintf(f, sizeof f, "in/%s", n);
    put(f, "inside");
    race(n, "../out/secret.json");
    t = sm_read_file(n, 1024, &len, &e);
    assert_int_equal(swapped, 1);
    if (t) fail_msg("%s: read a file swapped for a link: \"%s\"", tag, t);
    snprintf(n, sizeof n, "w%s.json", tag);
    snprintf(f, sizeof f, "../out/w%s.json", tag);
    race(n, f);
    assert_int_equal(sm_write_file_atomic(n, "x", 1, &e), -1);
    snprintf(f, sizeof f, "out/w%s.json", tag);
    assert_false(exists(f));

    /* mkdir -p: a parent swapped for a link out makes nothing outside. */
    snprintf(d, sizeof d, "m%s", tag);
    snprintf(p, sizeof p, "%s/in/%s", root, d);
    assert_int_equal(mkdir(p, 0700), 0);
    race(d, "../out");
    snprintf(n, sizeof n, "%s/made", d);
    assert_int_equal(sm_mkdir_p(n, &e), -1);
    assert_false(exists("out/made"));

    /* A removal (study temporaries): nothing outside goes. */
    snprintf(d, sizeof d, "r%s", tag);
    snprintf(p, sizeof p, "%s/in/%s", root, d);
    assert_int_equal(mkdir(p, 0700), 0);
    snprintf(f, sizeof f, "in/%s/secret.json", d);
    put(f, "inside");
    race(d, "../out");
    snprintf(n, sizeof n, "%s/secret.json", d);
    assert_int_equal(sm_path_remove(n, &e), -1);
    assert_true(exists("out/secret.json"));
    assert_int_equal(refusals, 5);

    /* Without a swap the same accesses work, links inside included. */
    sm_path_race_hook = NULL;
    put("in/ok.json", "fine");
    assert_int_equal(symlink("ok.json", "okl.json") == 0 || errno == EEXIST, 1);
    t = sm_read_file("okl.json", 1024, &len, &e);
    assert_non_null(t);
    assert_string_equal(t, "fine");
    free(t);
    assert_int_equal(sm_write_file_atomic("okl.json", "again", 5, &e), 0);
    t = sm_read_file("ok.json", 1024, &len, &e);   /* written through the link */
    assert_non_null(t);
    assert_string_equal(t, "again");
    free(t);
    assert_int_equal(sm_path_remove("ok.json", &e), 0);
    assert_false(exists("in/ok.json"));
    snprintf(n, sizeof n, "sub/deep%s/er", tag);
    assert_int_equal(sm_mkdir_p(n, &e), 0);
    /* The grant opens no more than the path names: `..` after a name
     * that is not a directory, or is not there, fails as the kernel
     * fails it (the resolved path would be a file that exists). */
    put("in/plain.json", "plain");
    assert_null(sm_read_file("plain.json/../plain.json", 1024, &len, &e));
    assert_non_null(strstr(e.msg, "Not a directory"));
    assert_null(sm_read_file("nosuch/../plain.json", 1024, &len, &e));
    assert_non_null(strstr(e.msg, "No such file"));
    assert_null(sm_read_file("plain.json/.", 1024, &len, &e));
    assert_null(sm_read_file("plain.json/", 1024, &len, &e));
    assert_int_equal(sm_write_file_atomic("nosuch/../plain.json", "x", 1, &e), -1);
    t = sm_read_file("sub/../plain.json", 1024, &len, &e);
    assert_non_null(t);
    free(t);
    /* and what is outside stays refused by the check itself */
    assert_null(sm_read_file("up/f", 1024, &len, &e));
    assert_int_equal(refusals, 5);

    sm_path_guard_set(NULL, NULL, NULL);
    sm_beneath_walk_only = 0;
}

static void swap_after_check_kernel(void **st)
{
    (void)st;
    race_cases(0, "k");
}

static void swap_after_check_walk(void **st)
{
    (void)st;
    race_cases(1, "w");
}

/* The walk by itself: absolute paths, `..` and links are never taken. */
static void beneath_refuses_the_way_out(void **st)
{
    (void)st;
    for (int w = 0; w < 2; w++) {
        sm_beneath_walk_only = w;
        int dfd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        assert_true(dfd >= 0);
        assert_int_equal(sm_open_beneath(dfd, "/etc/passwd", O_RDONLY, 0), -1);
        assert_int_equal(sm_open_beneath(dfd, "../out/f", O_RDONLY, 0), -1);
        assert_int_equal(sm_open_beneath(dfd, "up/f", O_RDONLY, 0), -1);
        assert_int_equal(sm_open_beneath(dfd, "abs/f", O_RDONLY, 0), -1);
        int fd = sm_open_beneath(dfd, "", O_RDONLY | O_DIRECTORY, 0);
        assert_true(fd >= 0);
        close(fd);
        close(dfd);
    }
    sm_beneath_walk_only = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resolves_like_the_kernel),
        cmocka_unit_test(refuses_loops_and_empty),
        cmocka_unit_test(below_is_by_component),
        cmocka_unit_test(readers_and_writers_ask_first),
        cmocka_unit_test(swap_after_check_kernel),
        cmocka_unit_test(swap_after_check_walk),
        cmocka_unit_test(beneath_refuses_the_way_out),
    };
    return cmocka_run_group_tests_name("pathguard", tests, setup, teardown);
}
