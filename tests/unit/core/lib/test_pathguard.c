/* test_pathguard.c - sm_path_resolve walks a path as the kernel will (a
 * symlink before `..` is followed first; a dangling symlink leads to where
 * a write would create the file; a loop is an error), and the guard is
 * asked by every reader and writer before anything is opened. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/testutil.h"
#include "core/lib/pathguard.h"

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
static int refuse(void *ctx, const char *path, int mode, sm_err *e)
{
    (void)ctx; (void)mode;
    asked++;
    sm_err_set(e, "%s: refused", path);
    return -1;
}

static void readers_and_writers_ask_first(void **st)
{
    (void)st;
    sm_path_guard_set(refuse, NULL);
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
    sm_path_guard_set(NULL, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resolves_like_the_kernel),
        cmocka_unit_test(refuses_loops_and_empty),
        cmocka_unit_test(below_is_by_component),
        cmocka_unit_test(readers_and_writers_ask_first),
    };
    return cmocka_run_group_tests_name("pathguard", tests, setup, teardown);
}
