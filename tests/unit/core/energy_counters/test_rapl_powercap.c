/* test_rapl_powercap.c - the RAPL reader against fixture trees laid out like
 * /sys/class/powercap: two packages with dram subzones (and core, psys and
 * mmio zones that must not be counted twice), a counter wrapping at
 * max_energy_range_uj, energy_uj readable by root only; and NVML absent. */
#include "tests/unit/testutil.h"
#include "core/energy_counters/nvml.h"
#include "core/energy_counters/rapl_powercap.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[64];

static void put(const char *zone, const char *file, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, zone);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/%s/%s", root, zone, file);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void zone(const char *id, const char *name, const char *energy, const char *max)
{
    put(id, "name", name);
    put(id, "energy_uj", energy);
    put(id, "max_energy_range_uj", max);
}

static int setup(void **st)
{
    (void)st;
    snprintf(root, sizeof root, "/tmp/sm-powercap-XXXXXX");
    assert_non_null(mkdtemp(root));
    chmod(root, 0755);
    zone("intel-rapl:0", "package-0\n", "1000000\n", "262143328850\n");
    zone("intel-rapl:0:0", "core\n", "500000\n", "262143328850\n");
    zone("intel-rapl:0:1", "dram\n", "200000\n", "65712999613\n");
    zone("intel-rapl:1", "package-1\n", "999000\n", "1000000\n");
    zone("intel-rapl:1:0", "dram\n", "7\n", "65712999613\n");
    zone("intel-rapl-mmio:0", "package-0\n", "1000000\n", "262143328850\n");
    zone("intel-rapl:2", "psys\n", "123\n", "262143328850\n");
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    return system(cmd);
}

static void wrap_arithmetic(void **st)
{
    (void)st;
    assert_true(sm_rapl_delta(100, 350, 1000) == 250);
    assert_true(sm_rapl_delta(900, 100, 1000) == 200);
    assert_true(sm_rapl_delta(5, 5, 1000) == 0);
}

static void two_packages_dram_and_wrap(void **st)
{
    (void)st;
    char why[512];
    setenv("STENCILMAP_POWERCAP", root, 1);
    assert_string_equal(sm_powercap_root(), root);
    sm_powercap *pc = sm_powercap_open(NULL, why, sizeof why);
    unsetenv("STENCILMAP_POWERCAP");
    if (!pc) fail_msg("%s", why);
    /* package-0, its dram, package-1, its dram; no core, psys or mmio. */
    assert_int_equal(pc->nzones, 4);
    assert_int_equal(sm_powercap_package(pc, 0), 0);
    assert_int_equal(sm_powercap_package(pc, 1), 2);
    assert_int_equal(sm_powercap_package(pc, 7), -1);
    assert_int_equal(pc->zones[3].package, 1);
    assert_true(pc->zones[3].dram);
    assert_int_equal(sm_powercap_readable(pc, 1, why, sizeof why), 1);
    assert_int_equal(sm_powercap_readable(pc, 3, why, sizeof why), 0);
    assert_non_null(strstr(why, "no zone for package 3"));
    /* Package 0 counts 2.5 J and its dram 0.3 J; package 1 wraps at 1 J:
     * from 0.999 J through 1.0 to 0.0005 J is 1.5 mJ. */
    zone("intel-rapl:0", "package-0\n", "3500000\n", "262143328850\n");
    zone("intel-rapl:0:1", "dram\n", "500000\n", "65712999613\n");
    zone("intel-rapl:0:0", "core\n", "9500000\n", "262143328850\n");
    zone("intel-rapl:1", "package-1\n", "500\n", "1000000\n");
    assert_int_equal(sm_powercap_sample(pc, why, sizeof why), 0);
    assert_float_equal(sm_powercap_joules(pc, 0, 0), 2.5, 1e-12);
    assert_float_equal(sm_powercap_joules(pc, 0, 1), 2.8, 1e-12);
    assert_float_equal(sm_powercap_joules(pc, 1, 0), 0.0015, 1e-12);
    /* Sums go on over samples, and restart at a reset. */
    zone("intel-rapl:1", "package-1\n", "2500\n", "1000000\n");
    assert_int_equal(sm_powercap_sample(pc, why, sizeof why), 0);
    assert_float_equal(sm_powercap_joules(pc, 1, 1), 0.0035, 1e-12);
    sm_powercap_reset(pc);
    assert_float_equal(sm_powercap_joules(pc, 1, 1), 0, 0);
    /* A counter that stops reading is an error, not a zero. */
    put("intel-rapl:1", "energy_uj", "garbage\n");
    assert_int_equal(sm_powercap_sample(pc, why, sizeof why), -1);
    assert_non_null(strstr(why, "expected a count of microjoules"));
    put("intel-rapl:1", "energy_uj", "2500\n");
    sm_powercap_close(pc);
}

/* Recent kernels: energy_uj is 0400 root. The zone is found, not read,
 * and the reason says so. Run as an unprivileged user (as root: in a child
 * that becomes nobody). */
static int unreadable_check(void)
{
    char why[512];
    sm_powercap *pc = sm_powercap_open(root, why, sizeof why);
    if (!pc) return 10;
    int ok = pc->nzones == 4 && sm_powercap_readable(pc, 0, why, sizeof why) == 0 &&
             strstr(why, "only root read RAPL") != NULL && strstr(why, "intel-rapl:0/energy_uj") != NULL &&
             sm_powercap_readable(pc, 1, why, sizeof why) == 1;
    sm_powercap_close(pc);
    return ok ? 0 : 11;
}

static void unreadable_counter(void **st)
{
    (void)st;
    char p[512];
    snprintf(p, sizeof p, "%s/intel-rapl:0/energy_uj", root);
    assert_int_equal(chmod(p, 0400), 0);
    int rc;
    if (geteuid() != 0) {
        rc = unreadable_check();
    } else {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) _exit(setgid(65534) == 0 && setuid(65534) == 0 ? unreadable_check() : 12);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        rc = WIFEXITED(status) ? WEXITSTATUS(status) : 13;
    }
    chmod(p, 0644);
    assert_int_equal(rc, 0);
}

static void no_powercap_no_nvml(void **st)
{
    (void)st;
    char why[512];
    assert_null(sm_powercap_open("/nonexistent/powercap", why, sizeof why));
    assert_non_null(strstr(why, "no powercap at /nonexistent/powercap"));
    /* A root with zones but no package zone. */
    char only[600];
    snprintf(only, sizeof only, "%s/empty", root);
    mkdir(only, 0755);
    assert_null(sm_powercap_open(only, why, sizeof why));
    assert_non_null(strstr(why, "no RAPL package zone"));
    setenv("STENCILMAP_NVML", "/nonexistent/libnvidia-ml.so.1", 1);
    assert_null(sm_nvml_open(why, sizeof why));
    unsetenv("STENCILMAP_NVML");
    assert_non_null(strstr(why, "cannot be loaded"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrap_arithmetic),
        cmocka_unit_test(two_packages_dram_and_wrap),
        cmocka_unit_test(unreadable_counter),
        cmocka_unit_test(no_powercap_no_nvml),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
