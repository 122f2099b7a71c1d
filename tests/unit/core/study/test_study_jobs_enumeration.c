/* test_study_jobs_enumeration.c - study jobs (order, SPEC errors, shards, result files),
 * the braille plot's geometry and topologies from hardware descriptions. */
#include "tests/unit/testutil.h"
#include <unistd.h>
#include "core/io/hwloc_description_to_topology.h"
#include "core/lib/sha256.h"
#include "core/study/study_jobs_enumeration.h"
#include "core/lib/braille_plot.h"
#include "core/io/topology_file.h"

static void spec(sm_study *st)
{
    sm_study_init(st);
    sm_study_add_scenario(st, "a.json");
    sm_study_add_scenario(st, "b.json");
    for (int i = 0; i < 3; i++) sm_study_add_solver(st, i == 0 ? "lb" : i == 1 ? "dm" : "na -f 0.9");
    int d = sm_study_add_param(st, "deadline"), r = sm_study_add_param(st, "round_time");
    sm_study_add_value(st, d, "3e-3");
    sm_study_add_value(st, d, "none");
    sm_study_add_value(st, r, "1e-7");
    sm_study_add_value(st, r, "2e-7");
    sm_study_add_seed(st, 7);
    sm_study_add_seed(st, 9);
}

/* Scenario-major, then solver, then each model key in order, seed fastest:
 * the number is the mixed-radix value of the indices. */
static void job_order(void **unused)
{
    (void)unused;
    sm_study st;
    spec(&st);
    sm_err e;
    assert_int_equal(sm_study_check(&st, &e), 0);
    assert_int_equal(sm_study_njobs(&st), 2 * 3 * 2 * 2 * 2);
    for (long n = 0; n < sm_study_njobs(&st); n++) {
        sm_study_job j;
        sm_study_job_at(&st, n, &j);
        long back = ((((long)j.scen * 3 + j.solv) * 2 + j.val[0]) * 2 + j.val[1]) * 2 + j.seed;
        assert_int_equal(back, n);
        assert_int_equal(j.number, n);
    }
    sm_study_job j;
    sm_study_job_at(&st, 29, &j);  /* 29 = 24 + 4 + 1: b, lb, none, 1e-7, seed 9 */
    assert_int_equal(j.scen, 1);
    assert_int_equal(j.solv, 0);
    assert_int_equal(j.val[0], 1);
    assert_int_equal(j.val[1], 0);
    assert_int_equal(j.seed, 1);
    sm_study_free(&st);
}

static void json_errors(void **unused)
{
    (void)unused;
    static const struct { const char *text, *want; } cases[] = {
        {"[1]", "expected"},
        {"{\"scenarios\":[\"a\"],\"solvers\":[\"lb\", 3]}", "solvers[1]"},
        {"{\"scenarios\":[\"a\"],\"solvers\":[\"lb\"],\"model\":{\"deadline\":3}}", "model.deadline"},
        {"{\"scenarios\":[\"a\"],\"solvers\":[\"lb\"],\"seeds\":[-1]}", "seeds[0]"},
        {"{\"scenarios\":[\"a\"],\"solvers\":[\"lb\"],\"frob\":1}", "frob"},
        {"{\"scenarios\":[],\"solvers\":[\"lb\"]}", "scenarios"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sm_study st;
        sm_study_init(&st);
        sm_err e;
        int rc = sm_study_from_json(&st, cases[i].text, strlen(cases[i].text), "s.json", &e);
        if (rc == 0) rc = sm_study_check(&st, &e);
        if (rc == 0) fail_msg("case %zu accepted", i);
        if (!strstr(e.msg, cases[i].want)) fail_msg("case %zu: \"%s\" lacks \"%s\"", i, e.msg, cases[i].want);
        sm_study_free(&st);
    }
    sm_study st;
    sm_study_init(&st);
    sm_err e;
    const char *ok = "{\"scenarios\":[\"a\"],\"solvers\":[\"lb\"],\"model\":{\"deadline\":[3e-3,\"none\"]},\"seeds\":[1,2,3]}";
    assert_int_equal(sm_study_from_json(&st, ok, strlen(ok), "s.json", &e), 0);
    assert_int_equal(sm_study_njobs(&st), 6);
    assert_string_equal(st.param[0].vals[1], "none");
    sm_study_free(&st);
}

static void shards(void **unused)
{
    (void)unused;
    long i, n;
    sm_err e;
    assert_int_equal(sm_study_parse_shard("3/4", &i, &n, &e), 0);
    assert_int_equal(i, 3);
    assert_int_equal(n, 4);
    const char *bad[] = {"4/4", "-1/2", "1/0", "a/b", "1", "1/2x", ""};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (sm_study_parse_shard(bad[k], &i, &n, &e) == 0) fail_msg("\"%s\" accepted", bad[k]);
    static const char *const vars[] = {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT",
                                       "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
                                       "STENCILMAP_STUDY_SHARDS"};
    for (size_t k = 0; k < 5; k++) unsetenv(vars[k]);
    assert_int_equal(sm_study_shard_from_env(0, &i, &n, &e), 0);
    /* --array=0-14:2: the task id is the shard, of MAX+1 = 15 (odd shards
     * are not run: exactly the shards the array names). */
    setenv("SLURM_ARRAY_TASK_ID", "6", 1);
    setenv("SLURM_ARRAY_TASK_COUNT", "8", 1);
    setenv("SLURM_ARRAY_TASK_MIN", "0", 1);
    setenv("SLURM_ARRAY_TASK_MAX", "14", 1);
    assert_int_equal(sm_study_shard_from_env(0, &i, &n, &e), 1);
    assert_int_equal(i, 6);
    assert_int_equal(n, 15);
    /* A rerun of --array=3,7 on a directory that recorded 16 shards. */
    setenv("SLURM_ARRAY_TASK_ID", "7", 1);
    setenv("SLURM_ARRAY_TASK_COUNT", "2", 1);
    setenv("SLURM_ARRAY_TASK_MIN", "3", 1);
    setenv("SLURM_ARRAY_TASK_MAX", "7", 1);
    assert_int_equal(sm_study_shard_from_env(16, &i, &n, &e), 1);
    assert_int_equal(i, 7);
    assert_int_equal(n, 16);
    /* STENCILMAP_STUDY_SHARDS wins over both. */
    setenv("STENCILMAP_STUDY_SHARDS", "10", 1);
    assert_int_equal(sm_study_shard_from_env(16, &i, &n, &e), 1);
    assert_int_equal(n, 10);
    /* A task id past the shards is an error that says so. */
    setenv("SLURM_ARRAY_TASK_ID", "12", 1);
    assert_int_equal(sm_study_shard_from_env(16, &i, &n, &e), -1);
    assert_non_null(strstr(e.msg, "names no shard"));
    setenv("STENCILMAP_STUDY_SHARDS", "0", 1);
    assert_int_equal(sm_study_shard_from_env(16, &i, &n, &e), -1);
    for (size_t k = 0; k < 5; k++) unsetenv(vars[k]);
}

static void sha256_vectors(void **unused)
{
    (void)unused;
    char h[65];
    sm_sha256_hex("", 0, h);
    assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sm_sha256_hex("abc", 3, h);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sm_sha256_hex(two, strlen(two), h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char a[1000];
    memset(a, 'a', sizeof a);
    sm_sha256_hex(a, 1000, h);
    assert_string_equal(h, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

static void manifest_round_trip(void **unused)
{
    (void)unused;
    char dir[] = "/tmp/sm-study-unit-XXXXXX";
    assert_non_null(mkdtemp(dir));
    sm_study st;
    sm_study_init(&st);
    sm_study_add_scenario(&st, "a.json");
    sm_study_add_solver(&st, "na -f 0.9");
    int p = sm_study_add_param(&st, "deadline");
    sm_study_add_value(&st, p, "3e-3");
    sm_study_add_value(&st, p, "none");
    sm_study_add_seed(&st, 7);
    sm_study_manifest m = {0};
    m.spec = sm_study_to_json(&st);
    sm_sha256_hex(m.spec, strlen(m.spec), m.hash);
    m.program = sm_xstrdup("stencilmap test");
    m.jobs = sm_study_njobs(&st);
    m.shards = 4;
    sm_err e;
    sm_study_manifest r;
    assert_int_equal(sm_study_manifest_read(dir, &r, &e), 0);
    assert_int_equal(sm_study_manifest_write(dir, &m, &e), 0);
    assert_int_equal(sm_study_manifest_read(dir, &r, &e), 1);
    assert_string_equal(r.hash, m.hash);
    assert_string_equal(r.program, "stencilmap test");
    assert_int_equal(r.jobs, 2);
    assert_int_equal(r.shards, 4);
    sm_study back;
    sm_study_init(&back);
    assert_int_equal(sm_study_manifest_study(&r, dir, &back, &e), 0);
    char *again = sm_study_to_json(&back);
    assert_string_equal(again, m.spec);
    free(again);
    sm_study_free(&back);
    sm_study_manifest_free(&r);
    /* A damaged manifest names its file and the key. */
    char path[256];
    snprintf(path, sizeof path, "%s/study.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"format\": \"stencilmap/study\", \"version\": 1, \"spec\": {}, \"program\": \"x\"}", f);
    fclose(f);
    assert_int_equal(sm_study_manifest_read(dir, &r, &e), -1);
    assert_non_null(strstr(e.msg, "study.json: "));
    assert_non_null(strstr(e.msg, "spec_sha256"));
    unlink(path);
    rmdir(dir);
    sm_study_manifest_free(&m);
    sm_study_free(&st);
}

static void result_files(void **unused)
{
    (void)unused;
    char dir[] = "/tmp/sm-study-unit-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *names[] = {"job-000003.json", "job-000001.json", "job-000001.map.json",
                           "job-x.json", "other.txt", "job-000002.json.tmp"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, names[k]);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fclose(f);
    }
    char *path = sm_study_job_path(dir, 42, "json");
    assert_non_null(strstr(path, "/job-000042.json"));
    free(path);
    long *nums, count;
    sm_err e;
    assert_int_equal(sm_study_list(dir, &nums, &count, &e), 0);
    assert_int_equal(count, 2);
    assert_int_equal(nums[0], 1);
    assert_int_equal(nums[1], 3);
    free(nums);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, names[k]);
        unlink(p);
    }
    rmdir(dir);
}

static void plot_geometry(void **unused)
{
    (void)unused;
    double x[] = {0, 10}, y[] = {-1, 1};
    sm_plot pl;
    sm_plot_init(&pl, 5, 3, x, y, 2);   /* 10 x 12 dots */
    int c, r;
    assert_int_equal(sm_plot_dot(&pl, 0, -1, &c, &r), 1);
    assert_int_equal(c, 0);
    assert_int_equal(r, 11);
    assert_int_equal(sm_plot_dot(&pl, 10, 1, &c, &r), 1);
    assert_int_equal(c, 9);
    assert_int_equal(r, 0);
    assert_int_equal(sm_plot_dot(&pl, 11, 0, &c, &r), 0);
    assert_int_equal(sm_plot_dot(&pl, NAN, 0, &c, &r), 0);
    sm_plot_point(&pl, 10, 1);          /* cell (0, 4), right column, top row */
    assert_int_equal(pl.dots[4], 0x08);
    sm_plot_mark(&pl, 0, -1);           /* cell (2, 0) */
    assert_int_equal(pl.marks[2 * 5 + 0], 1);
    sm_plot_free(&pl);
}

static sm_topo *from_hw(const sm_hw_machine *m, int nm, int nodes)
{
    sm_err e;
    cJSON *j = sm_hw_topology_json(m, nm, nodes, &e);
    if (!j) fail_msg("%s", e.msg);
    sm_topo *t = sm_topo_from_json(j, "", &e);
    cJSON_Delete(j);
    if (!t) fail_msg("%s", e.msg);
    return t;
}

static void hardware_topology(void **unused)
{
    (void)unused;
    assert_string_equal(sm_hw_known_type("Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz", 0), "xeon_gold_6148");
    assert_string_equal(sm_hw_known_type("Tesla V100-SXM2-16GB", 1), "v100");
    assert_null(sm_hw_known_type("Tesla V100-SXM2-16GB", 0));
    assert_null(sm_hw_known_type("Frobnicator 9000", 0));
    sm_hw_machine m = {0, NULL};
    sm_hw_machine_add(&m, 0, "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz", 20, 96e9);
    sm_hw_machine_add(&m, 0, "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz", 10, 48e9);
    sm_hw_machine_add(&m, 1, "Frob GPU", 0, 0);
    sm_topo *t = from_hw(&m, 1, 1);
    assert_int_equal(t->nprocs, 3);
    assert_int_equal(t->ntypes, 3);
    int full = sm_topo_find_type(t, "xeon_gold_6148"), half = sm_topo_find_type(t, "xeon_gold_6148_10c"),
        gpu = sm_topo_find_type(t, "frob_gpu"); /* an unknown GPU: named by its model */
    assert_true(full >= 0 && half >= 0 && gpu >= 0);
    /* Half the cores: half the flops and bandwidth, twice the time a cell. */
    double th = sm_type_params(&t->types[half])->time_per_cell,
           tf = sm_type_params(&t->types[full])->time_per_cell;
    assert_true(fabs(th - 2 * tf) <= 1e-12 * th);
    assert_non_null(strstr(t->types[full].estimated, "table entry"));
    assert_non_null(strstr(t->types[gpu].estimated, "unknown GPU"));
    assert_non_null(strstr(t->types[gpu].estimated, "memory"));
    /* Every type pair has its own link class. */
    for (int a = 0; a < t->ntypes; a++)
        for (int b = 0; b < t->ntypes; b++) assert_true(t->intra_of[a * t->ntypes + b] >= 0);
    assert_int_equal(t->nintra, 6);
    sm_topo_free(t);
    /* Three nodes from one machine: a tree, names by node. */
    t = from_hw(&m, 1, 3);
    assert_int_equal(t->nprocs, 9);
    assert_int_equal(t->nnodes, 3);
    assert_string_equal(t->net->ops->kind, "tree");
    assert_string_equal(t->procs[8].name, "n02.gpu0");
    sm_topo_free(t);
    sm_err e;
    sm_hw_machine empty = {0, NULL};
    assert_null(sm_hw_topology_json(&empty, 1, 1, &e));
    assert_null(sm_hw_topology_json(&m, 2, 1, &e));
    sm_hw_machine_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(job_order),
        cmocka_unit_test(json_errors),
        cmocka_unit_test(shards),
        cmocka_unit_test(result_files),
        cmocka_unit_test(sha256_vectors),
        cmocka_unit_test(manifest_round_trip),
        cmocka_unit_test(plot_geometry),
        cmocka_unit_test(hardware_topology),
    };
    return cmocka_run_group_tests_name("study", tests, NULL, NULL);
}
