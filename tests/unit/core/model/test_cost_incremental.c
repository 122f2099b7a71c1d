/* test_cost_incremental.c - the cost model: the published single-node figures, and the
 * incremental state held against the reference evaluation after thousands
 * of random moves and swaps on random grids and machines. */
#include "tests/unit/testutil.h"
#include "core/model/processor_time_energy.h"
#include "core/io/processor_profile_csv_file.h"
#include "core/io/topology_file.h"

typedef struct { const char *kinds; const char *order; int64_t edges, mrounds; double time, energy; } row;

/* SPEC 7: lb rows with -speeds floor. */
static const row rows[] = {
    {"cpu cpu", "ijk", 256, 64, 13.952e-3, 7.0591},
    {"cpu cpu", "jik", 256, 64, 13.952e-3, 7.0591},
    {"cpu cpu", "kij", 256, 64, 13.952e-3, 7.0591},
    {"cpu gpu", "ijk", 192, 48, 3.488e-3, 3.5173},
    {"cpu gpu", "jik", 160, 40, 3.488e-3, 3.0712},
    {"cpu gpu", "kij", 160, 40, 3.488e-3, 3.0712},
    {"cpu cpu gpu gpu", "ijk", 576, 128, 1.744e-3, 8.8711},
    {"cpu cpu gpu gpu", "jik", 480, 112, 1.744e-3, 7.5326},
};

static void cuboid_lb_rows(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        sm_topo *t = tu_thesis(rows[i].kinds);
        sm_model m;
        sm_model_default(&m);
        sm_order o;
        sm_order_parse(rows[i].order, &o);
        int map[128];
        sm_fill(g, t, SM_SPEEDS_FLOOR, o, 0, map);
        sm_cost *c = sm_cost_new(g, t, &m, map);
        sm_eval ev;
        sm_cost_eval(c, &ev);
        assert_int_equal(ev.edges, rows[i].edges);
        assert_int_equal(ev.message_rounds, rows[i].mrounds);
        tu_assert_close(ev.time, rows[i].time, 1e-9, "time");
        /* Published to four decimals. */
        assert_true(fabs(ev.energy - rows[i].energy) < 5e-5);
        sm_cost_free(c);
        sm_topo_free(t);
    }
    sm_grid_free(g);
}

static void computation_only_energy(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    const char *k[2] = {"cpu cpu", "cpu gpu"};
    double want[2] = {3.4899, 0.8405};
    for (int i = 0; i < 2; i++) {
        sm_topo *t = tu_thesis(k[i]);
        sm_model m;
        sm_model_default(&m);
        int map[128];
        sm_fill(g, t, SM_SPEEDS_FLOOR, SM_ORDER_IJK, 0, map);
        sm_cost *c = sm_cost_new(g, t, &m, map);
        sm_eval ev;
        sm_cost_eval(c, &ev);
        double comp = ev.energy_dynamic + ev.energy_static + ev.energy_idle;
        assert_true(fabs(comp - want[i]) < 5e-5);
        sm_cost_free(c);
        sm_topo_free(t);
    }
    sm_grid_free(g);
}

static void model_options(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    int map[128];
    /* All on gpu0: gpu1 unused. */
    for (int u = 0; u < 128; u++) map[u] = 1;
    sm_cost *c = sm_cost_new(g, t, &m, map);
    sm_eval a, b;
    sm_cost_eval(c, &a);
    assert_int_equal(a.procs_used, 1);
    assert_int_equal(a.messages, 0);
    /* cpu0 and gpu1 idle all of T. */
    tu_assert_close(a.energy_idle, a.time * (10 + 30), 1e-12, "idle, unused idle");
    m.unused_idle = 0;
    sm_cost_set_model(c, &m);
    sm_cost_eval(c, &b);
    assert_true(b.energy_idle == 0.0);
    /* Deadline below T: infeasible; above: feasible. */
    m.has_deadline = 1;
    m.deadline = a.time * 0.99;
    sm_cost_set_model(c, &m);
    sm_cost_eval(c, &b);
    assert_false(b.feasible);
    m.deadline = a.time;
    sm_cost_set_model(c, &m);
    sm_cost_eval(c, &b);
    assert_true(b.feasible);
    /* Overlap off: T = comp + comm. */
    sm_cost_move(c, 0, 2);
    m.overlap = 0;
    m.has_deadline = 0;
    sm_cost_set_model(c, &m);
    sm_cost_eval(c, &b);
    tu_assert_close(b.time, b.comp_time + b.comm_time, 1e-12, "no overlap");
    /* A longer round time changes the quanta: k = ceil(4us / 3us) = 2. */
    m.round_time = 3e-6;
    sm_cost_set_model(c, &m);
    sm_cost_eval(c, &b);
    assert_int_equal(b.edges, 2 * b.messages);
    sm_cost_free(c);
    sm_topo_free(t);
    sm_grid_free(g);
}

static void memory_capacity(void **st)
{
    (void)st;
    sm_topo *t = tu_topo_text(
        "{\"format\":\"stencilmap/topology\",\"version\":1,"
        "\"types\":{\"a\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1,"
        "\"memory\":1000,\"bytes_per_cell\":10}},"
        "\"processors\":[{\"name\":\"a0\",\"type\":\"a\",\"node\":0},{\"name\":\"a1\",\"type\":\"a\",\"node\":0}],"
        "\"network\":{\"kind\":\"single\"},\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}}}}");
    sm_grid_spec s;
    sm_grid_spec_default(&s);
    s.blocks[0] = 4;
    s.cells[0] = 40; s.cells[1] = 5; s.cells[2] = 1; /* 50 cells a block */
    sm_err e;
    sm_grid *g = sm_grid_build(&s, &e);
    sm_model m;
    sm_model_default(&m);
    int map[4] = {0, 0, 1, 1};
    sm_cost *c = sm_cost_new(g, t, &m, map);
    sm_eval ev;
    sm_cost_eval(c, &ev);
    assert_true(ev.feasible); /* 100 cells x 10 B = 1000 B */
    sm_cost_move(c, 2, 0);
    sm_cost_eval(c, &ev);
    assert_false(ev.feasible);
    assert_false(ev.memory_ok);
    sm_cost_move(c, 2, 1);
    sm_cost_eval(c, &ev);
    assert_true(ev.feasible);
    sm_cost_free(c);
    sm_grid_free(g);
    sm_topo_free(t);
}

/* A random machine as JSON: 1-3 types (one roofline), 2-10 processors on
 * up to 6 nodes, one of every network kind. */
static sm_topo *random_topo(unsigned long long *rs)
{
    char *buf = malloc(65536);
    int ntypes = 1 + (int)(sm_rand_next(rs) % 3);
    int nprocs = 2 + (int)(sm_rand_next(rs) % 9);
    int kind = (int)(sm_rand_next(rs) % 6);
    int nodes = kind == 0 ? 1 : 1 + (int)(sm_rand_next(rs) % 6);
    const char *net;
    char netbuf[2048];
    int ninter = 1;
    switch (kind) {
    case 0: net = "{\"kind\":\"single\"}"; ninter = 0; break;
    case 1: net = "{\"kind\":\"tree\",\"group_sizes\":[2,2]}"; ninter = 3; break;
    case 2: net = "{\"kind\":\"torus\",\"dims\":[2,3]}"; nodes = nodes > 6 ? 6 : nodes; break;
    case 3: net = "{\"kind\":\"mesh\",\"dims\":[3,2]}"; break;
    case 4: net = "{\"kind\":\"haec\",\"boards\":3,\"board_dims\":[2,1]}"; ninter = 2; break;
    default: {
        int n = 6, len = snprintf(netbuf, sizeof netbuf, "{\"kind\":\"matrix\",\"levels\":[");
        for (int i = 0; i < n; i++) {
            len += snprintf(netbuf + len, sizeof netbuf - (size_t)len, "%s[", i ? "," : "");
            for (int k = 0; k < n; k++)
                len += snprintf(netbuf + len, sizeof netbuf - (size_t)len, "%s%d", k ? "," : "",
                                i == k ? 0 : 1 + (i + k) % 3);
            len += snprintf(netbuf + len, sizeof netbuf - (size_t)len, "]");
        }
        snprintf(netbuf + len, sizeof netbuf - (size_t)len, "]}");
        net = netbuf;
        ninter = 3;
    }
    }
    int len = snprintf(buf, 65536, "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{");
    for (int i = 0; i < ntypes; i++) {
        if (i == 2)
            len += snprintf(buf + len, 65536 - (size_t)len,
                            ",\"t2\":{\"flops\":%g,\"bandwidth\":%g,\"flops_per_cell\":8,\"bytes_per_cell\":24,"
                            "\"energy_per_flop\":1e-11,\"energy_per_byte\":2e-10,\"p0\":%g,\"p_idle\":%g}",
                            1e12 * (1 + sm_rand_unit(rs)), 5e11 * (1 + sm_rand_unit(rs)),
                            50 * sm_rand_unit(rs), 20 * sm_rand_unit(rs));
        else if (i == 1 && sm_rand_next(rs) % 2) {
            /* A measured profile: non-monotone, sizes missing, and short
             * enough that some mappings overrun it. */
            len += snprintf(buf + len, 65536 - (size_t)len,
                            ",\"t1\":{\"p0\":%.4g,\"p_idle\":%.4g,\"profile\":[", 100 * sm_rand_unit(rs),
                            30 * sm_rand_unit(rs));
            int b = 0, npts = 1 + (int)(sm_rand_next(rs) % 6);
            for (int k = 0; k < npts; k++) {
                b += 1 + (int)(sm_rand_next(rs) % 4);
                len += snprintf(buf + len, 65536 - (size_t)len, "%s[%d,%.6g,%.6g]", k ? "," : "", b,
                                1e-5 * (0.2 + sm_rand_unit(rs)) * b, 1e-3 * sm_rand_unit(rs) * b);
            }
            len += snprintf(buf + len, 65536 - (size_t)len, "]}");
        } else
            len += snprintf(buf + len, 65536 - (size_t)len,
                            "%s\"t%d\":{\"time_per_cell\":%.6g,\"energy_per_cell\":%.6g,\"p0\":%.4g,\"p_idle\":%.4g}",
                            i ? "," : "", i, 1e-10 * (1 + 9 * sm_rand_unit(rs)),
                            1e-9 * (1 + 9 * sm_rand_unit(rs)), 100 * sm_rand_unit(rs),
                            30 * sm_rand_unit(rs));
    }
    len += snprintf(buf + len, 65536 - (size_t)len, "},\"processors\":[");
    for (int p = 0; p < nprocs; p++)
        len += snprintf(buf + len, 65536 - (size_t)len, "%s{\"name\":\"p%d\",\"type\":\"t%d\",\"node\":%d}",
                        p ? "," : "", p, (int)(sm_rand_next(rs) % (unsigned)ntypes),
                        (int)(sm_rand_next(rs) % (unsigned)nodes));
    len += snprintf(buf + len, 65536 - (size_t)len,
                    "],\"network\":%s,\"links\":{\"intra\":{\"*\":{\"time_per_cell\":%.6g,\"energy_per_cell\":%.6g}},\"inter\":[",
                    net, 1e-10 * (1 + 9 * sm_rand_unit(rs)), 1e-8 * sm_rand_unit(rs));
    for (int i = 0; i < ninter; i++)
        len += snprintf(buf + len, 65536 - (size_t)len, "%s{\"time_per_cell\":%.6g,\"energy_per_cell\":%.6g}",
                        i ? "," : "", 1e-9 * (1 + 9 * sm_rand_unit(rs)), 1e-8 * (1 + sm_rand_unit(rs)));
    snprintf(buf + len, 65536 - (size_t)len, "]}}");
    sm_topo *t = tu_topo_text(buf);
    free(buf);
    return t;
}

static void same(const sm_eval *a, const sm_eval *b)
{
    assert_int_equal(a->messages, b->messages);
    assert_int_equal(a->edges, b->edges);
    assert_int_equal(a->edges_intra, b->edges_intra);
    assert_int_equal(a->edges_inter, b->edges_inter);
    assert_int_equal(a->rounds, b->rounds);
    assert_int_equal(a->message_rounds, b->message_rounds);
    assert_int_equal(a->rounds_lower, b->rounds_lower);
    assert_int_equal(a->procs_used, b->procs_used);
    assert_int_equal(a->feasible, b->feasible);
    assert_int_equal(a->memory_ok, b->memory_ok);
    tu_assert_close(a->comp_time, b->comp_time, 1e-12, "comp_time");
    tu_assert_close(a->time, b->time, 1e-12, "time");
    tu_assert_close(a->energy, b->energy, 1e-9, "energy");
    tu_assert_close(a->energy_dynamic, b->energy_dynamic, 1e-9, "dynamic");
    tu_assert_close(a->energy_static, b->energy_static, 1e-9, "static");
    assert_true(fabs(a->energy_idle - b->energy_idle) <= 1e-9 * (a->energy + 1e-12));
    tu_assert_close(a->energy_comm_intra + 1, b->energy_comm_intra + 1, 1e-12, "comm intra");
    tu_assert_close(a->energy_comm_inter + 1, b->energy_comm_inter + 1, 1e-12, "comm inter");
}

/* Under "colouring" with more than four processors the incremental
 * schedule may differ from a full rebuild (issue 14: repaired locally,
 * rebuilt when it drifts): everything else must match, the schedule must
 * be a proper colouring of M with the reported colours, and the rounds
 * at least the reference's certified bound. */
static void same_colouring(const sm_cost *c, const sm_eval *a, const sm_eval *b)
{
    if (a->rounds == b->rounds && a->message_rounds == b->message_rounds) {
        sm_eval x = *a;
        x.rounds_lower = b->rounds_lower; /* bounds may differ, both certified */
        same(&x, b);
        return;
    }
    assert_int_equal(a->messages, b->messages);
    assert_int_equal(a->edges, b->edges);
    assert_int_equal(a->procs_used, b->procs_used);
    tu_assert_close(a->comp_time, b->comp_time, 1e-12, "comp_time");
    tu_assert_close(a->energy_dynamic, b->energy_dynamic, 1e-9, "dynamic");
    tu_assert_close(a->energy_static, b->energy_static, 1e-9, "static");
    tu_assert_close(a->energy_comm + 1, b->energy_comm + 1, 1e-12, "comm");
    assert_true(a->rounds >= b->rounds_lower);
    assert_true(a->message_rounds >= b->message_rounds_lower);
    assert_true(a->rounds_lower <= a->rounds);
    tu_assert_close(a->comm_time, (double)a->rounds * c->model.round_time, 1e-12, "comm_time");
    double t = c->model.overlap ? fmax(a->comp_time, a->comm_time) : a->comp_time + a->comm_time;
    tu_assert_close(a->time, t, 1e-12, "time");
    int n;
    sm_pairmu *v = sm_cost_pairs(c, 0, &n);
    sm_schedule sch;
    sm_cost_schedule(c, &sch);
    char why[160];
    if (!sm_schedule_check(&sch, v, n, c->nprocs, why, sizeof why)) fail_msg("%s", why);
    assert_int_equal(sch.colours, a->rounds);
    sm_schedule_free(&sch);
    free(v);
}

static void incremental_matches_reference(void **st)
{
    (void)st;
    unsigned long long rs = 12345;
    const sm_stencil sts[4] = {SM_ST_5PT, SM_ST_9PT, SM_ST_7PT, SM_ST_27PT};
    int checks = 0;
    for (int trial = 0; trial < 24; trial++) {
        sm_stencil s = sts[trial % 4];
        int two = s == SM_ST_5PT || s == SM_ST_9PT;
        sm_grid *g = tu_grid(1 + (int)(sm_rand_next(&rs) % 5), 1 + (int)(sm_rand_next(&rs) % 4),
                             two ? 1 : 1 + (int)(sm_rand_next(&rs) % 3), (int)(sm_rand_next(&rs) % 2),
                             (int)(sm_rand_next(&rs) % 2), (int)(sm_rand_next(&rs) % 2), s);
        sm_topo *t = random_topo(&rs);
        sm_model m;
        sm_model_default(&m);
        m.rounds = (sm_rounds_model)(trial % 3);
        m.overlap = (trial / 3) % 2;
        m.unused_idle = (trial / 6) % 2;
        m.round_time = trial % 5 == 0 ? 3e-7 : 1e-6;
        if (trial % 4 == 1) { m.has_deadline = 1; m.deadline = 1e-4; }
        int n = g->ntasks, P = t->nprocs;
        int *map = malloc(sizeof(int) * (size_t)n);
        for (int u = 0; u < n; u++) map[u] = (int)(sm_rand_next(&rs) % (unsigned)P);
        sm_cost *c = sm_cost_new(g, t, &m, map);
        for (int step = 0; step < 400; step++) {
            int u = (int)(sm_rand_next(&rs) % (unsigned)n);
            if (sm_rand_next(&rs) % 3 == 0) {
                int v = (int)(sm_rand_next(&rs) % (unsigned)n);
                sm_cost_swap(c, u, v);
            } else {
                sm_cost_move(c, u, (int)(sm_rand_next(&rs) % (unsigned)P));
            }
            if (step % 10 == 9) {
                sm_eval a, b;
                sm_cost_eval(c, &a);
                sm_eval_reference(g, t, &m, c->map, &b);
                if (m.rounds == SM_ROUNDS_COLOURING) same_colouring(c, &a, &b);
                else same(&a, &b);
                checks++;
            }
        }
        free(map);
        sm_cost_free(c);
        sm_topo_free(t);
        sm_grid_free(g);
    }
    assert_true(checks >= 24 * 40);
}


/* The multiplicity heaps wait while vizing is not the model and catch up
 * when it becomes it (sm_cost_set_model), and sm_cost_remap reaches any
 * mapping, by moves or by a rebuild, in place: both against the
 * reference after moves made under each model in turn. */
static void model_switches_and_remaps(void **st)
{
    (void)st;
    unsigned long long rs = 777;
    for (int trial = 0; trial < 12; trial++) {
        sm_grid *g = tu_grid(2 + (int)(sm_rand_next(&rs) % 4), 2 + (int)(sm_rand_next(&rs) % 3),
                             1 + (int)(sm_rand_next(&rs) % 3), trial % 2, 0, (trial / 2) % 2,
                             trial % 3 ? SM_ST_7PT : SM_ST_27PT);
        sm_topo *t = random_topo(&rs);
        sm_model m;
        sm_model_default(&m);
        int n = g->ntasks, P = t->nprocs;
        int *map = malloc(sizeof(int) * (size_t)n);
        for (int u = 0; u < n; u++) map[u] = (int)(sm_rand_next(&rs) % (unsigned)P);
        sm_cost *c = sm_cost_new(g, t, &m, map);
        int *where = c->map;
        const sm_rounds_model order[4] = {SM_ROUNDS_MAXDEG, SM_ROUNDS_VIZING, SM_ROUNDS_COLOURING, SM_ROUNDS_VIZING};
        for (int phase = 0; phase < 8; phase++) {
            m.rounds = order[(phase + trial) % 4];
            sm_cost_set_model(c, &m);
            sm_eval a, b;
            sm_cost_eval(c, &a);
            sm_eval_reference(g, t, &m, c->map, &b);
            if (m.rounds == SM_ROUNDS_COLOURING) same_colouring(c, &a, &b);
            else same(&a, &b);
            if (phase % 2) {
                /* Few blocks (moves) or most of them (a rebuild). */
                int k = phase % 4 == 1 ? 1 : n;
                memcpy(map, c->map, sizeof(int) * (size_t)n);
                for (int i = 0; i < k; i++)
                    map[sm_rand_next(&rs) % (unsigned)n] = (int)(sm_rand_next(&rs) % (unsigned)P);
                sm_cost_remap(c, map);
                assert_ptr_equal(c->map, where);
                assert_memory_equal(c->map, map, sizeof(int) * (size_t)n);
            }
            for (int step = 0; step < 60; step++)
                sm_cost_move(c, (int)(sm_rand_next(&rs) % (unsigned)n), (int)(sm_rand_next(&rs) % (unsigned)P));
            sm_cost_eval(c, &a);
            sm_eval_reference(g, t, &m, c->map, &b);
            if (m.rounds == SM_ROUNDS_COLOURING) same_colouring(c, &a, &b);
            else same(&a, &b);
        }
        free(map);
        sm_cost_free(c);
        sm_topo_free(t);
        sm_grid_free(g);
    }
}

/* sm_cost_move_set: a batch of blocks (regions moving together, blocks
 * already in place, blocks listed twice) ends exactly where the same
 * moves one by one end, and where a fresh evaluation is; then single
 * moves go on from it. */
static void batch_moves_match(void **st)
{
    (void)st;
    unsigned long long rs = 777;
    const sm_stencil sts[4] = {SM_ST_7PT, SM_ST_27PT, SM_ST_5PT, SM_ST_9PT};
    int checks = 0;
    for (int trial = 0; trial < 24; trial++) {
        sm_stencil s = sts[trial % 4];
        int two = s == SM_ST_5PT || s == SM_ST_9PT;
        sm_grid *g = tu_grid(2 + (int)(sm_rand_next(&rs) % 5), 2 + (int)(sm_rand_next(&rs) % 4),
                             two ? 1 : 1 + (int)(sm_rand_next(&rs) % 3), (int)(sm_rand_next(&rs) % 2),
                             (int)(sm_rand_next(&rs) % 2), 0, s);
        sm_topo *t = random_topo(&rs);
        sm_model m;
        sm_model_default(&m);
        m.rounds = (sm_rounds_model)(trial % 3);
        m.overlap = (trial / 3) % 2;
        if (trial % 4 == 1) { m.has_deadline = 1; m.deadline = 1e-4; }
        int n = g->ntasks, P = t->nprocs;
        int *map = malloc(sizeof(int) * (size_t)n), *to = malloc(sizeof(int) * (size_t)n);
        int *list = malloc(sizeof(int) * (size_t)(2 * n + 2));
        for (int u = 0; u < n; u++) map[u] = (int)(sm_rand_next(&rs) % (unsigned)P);
        sm_cost *a = sm_cost_new(g, t, &m, map), *b = sm_cost_new(g, t, &m, map);
        for (int round = 0; round < 12; round++) {
            memcpy(to, a->map, sizeof(int) * (size_t)n);
            int nl = 0;
            /* A run of blocks to one processor, some scattered, some in place, a duplicate. */
            int lo = (int)(sm_rand_next(&rs) % (unsigned)n), len = 1 + (int)(sm_rand_next(&rs) % (unsigned)n);
            int q = (int)(sm_rand_next(&rs) % (unsigned)P);
            for (int u = lo; u < n && u < lo + len; u++) { to[u] = q; list[nl++] = u; }
            for (int k = 0; k < 4; k++) {
                int u = (int)(sm_rand_next(&rs) % (unsigned)n);
                to[u] = (int)(sm_rand_next(&rs) % (unsigned)P);
                list[nl++] = u;
            }
            list[nl++] = (int)(sm_rand_next(&rs) % (unsigned)n);
            list[nl] = list[0];
            nl++;
            sm_cost_move_set(a, list, nl, to);
            for (int i = 0; i < nl; i++) sm_cost_move(b, list[i], to[list[i]]);
            assert_memory_equal(a->map, to, sizeof(int) * (size_t)n);
            sm_eval ea, eb, er;
            sm_cost_eval(a, &ea);
            sm_cost_eval(b, &eb);
            sm_eval_reference(g, t, &m, a->map, &er);
            if (m.rounds == SM_ROUNDS_COLOURING) {
                same_colouring(a, &ea, &er);
            } else {
                same(&ea, &eb);
                same(&ea, &er);
            }
            for (int p = 0; p < P; p++) {
                assert_int_equal(a->cells[p], b->cells[p]);
                assert_int_equal(a->deg[p], b->deg[p]);
            }
            /* Single moves go on from the batch's state. */
            int u = (int)(sm_rand_next(&rs) % (unsigned)n), p = (int)(sm_rand_next(&rs) % (unsigned)P);
            sm_cost_move(a, u, p);
            sm_cost_move(b, u, p);
            checks++;
        }
        free(map);
        free(to);
        free(list);
        sm_cost_free(a);
        sm_cost_free(b);
        sm_topo_free(t);
        sm_grid_free(g);
    }
    assert_int_equal(checks, 24 * 12);
}

/* SPEC 2.2: 0 blocks cost nothing, linear between points and from the
 * origin to the first, infeasible beyond the last; per processor too. */
static void profile_costs(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(4, 2, 1, 0, 0, 0, SM_ST_5PT);
    sm_topo *t = tu_topo_text(
        "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{"
        "\"m\":{\"p0\":10,\"p_idle\":1,\"profile\":[[2,4,20],[4,6,10],[6,12,60]]},"
        "\"c\":{\"time_per_cell\":1e-9,\"energy_per_cell\":0,\"p0\":0,\"p_idle\":0}},"
        "\"processors\":[{\"name\":\"m0\",\"type\":\"m\",\"node\":0},"
        "{\"name\":\"c0\",\"type\":\"c\",\"node\":0}],\"network\":{\"kind\":\"single\"},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":0,\"energy_per_cell\":0}}}}");
    sm_model m;
    sm_model_default(&m);
    m.unused_idle = 0;
    static const struct { int on_m; double time, energy; int ok; } want[] = {
        {0, 0, 0, 1}, {1, 2, 10, 1}, {2, 4, 20, 1}, {3, 5, 15, 1},
        {4, 6, 10, 1}, {5, 9, 35, 1}, {6, 12, 60, 1}, {7, 14, 70, 0},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int map[8];
        for (int u = 0; u < 8; u++) map[u] = u < want[k].on_m ? 0 : 1;
        sm_cost *c = sm_cost_new(g, t, &m, map);
        sm_eval ev, ref;
        sm_cost_eval(c, &ev);
        sm_eval_reference(g, t, &m, map, &ref);
        sm_proc_eval pe;
        sm_cost_proc(c, &ev, 0, &pe);
        tu_assert_close(pe.comp_time + 1, want[k].time + 1, 1e-12, "profile time");
        tu_assert_close(pe.energy_dynamic + 1, want[k].energy + 1, 1e-12, "profile energy");
        tu_assert_close(ev.energy_dynamic + 1, want[k].energy + 1, 1e-12, "dynamic");
        tu_assert_close(ev.energy_static + 1, 10 * want[k].time + 1, 1e-12, "static");
        assert_int_equal(ev.memory_ok, want[k].ok);
        assert_int_equal(ev.feasible, want[k].ok);
        same(&ev, &ref);
        /* Incrementally: move the blocks off again and back. */
        for (int u = 0; u < want[k].on_m; u++) sm_cost_move(c, u, 1);
        for (int u = 0; u < want[k].on_m; u++) sm_cost_move(c, u, 0);
        sm_cost_eval(c, &ev);
        same(&ev, &ref);
        sm_cost_free(c);
    }
    sm_topo_free(t);
    sm_grid_free(g);
}

static void per_processor_sums(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 1, 1, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    int map[128];
    sm_fill(g, t, SM_SPEEDS_EXACT, SM_ORDER_KIJ, 0, map);
    sm_cost *c = sm_cost_new(g, t, &m, map);
    sm_eval ev;
    sm_cost_eval(c, &ev);
    double total = 0, comm = 0;
    int64_t blocks = 0;
    for (int p = 0; p < t->nprocs; p++) {
        sm_proc_eval pe;
        sm_cost_proc(c, &ev, p, &pe);
        total += pe.energy;
        comm += pe.energy_comm;
        blocks += pe.blocks;
    }
    assert_int_equal(blocks, 128);
    tu_assert_close(total, ev.energy, 1e-12, "sum of processor energies");
    tu_assert_close(comm, ev.energy_comm, 1e-12, "sum of processor comm");
    sm_cost_free(c);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* Beyond 512 processors there is no P x P link cache: each processor pair
 * memoizes its link and quanta as it first carries a cut edge (#14 item
 * 3). A 27-point stencil mixes face, edge and corner messages over the
 * same pairs, so the memo's cell count changes; every model of rounds. */
static void large_machine_matches_reference(void **st)
{
    (void)st;
    sm_err e;
    sm_topo *t = sm_topo_load("samples/topologies/torus16-topology.json", &e);
    if (!t) fail_msg("%s", e.msg);
    assert_true(t->nprocs > 512);
    sm_grid *g = tu_grid(6, 5, 4, 1, 0, 1, SM_ST_27PT);
    unsigned long long rs = 99;
    for (int r = 0; r < 3; r++) {
        sm_model m;
        sm_model_default(&m);
        m.rounds = (sm_rounds_model)r;
        m.round_time = r == 1 ? 2e-7 : 1e-6;
        int n = g->ntasks, *map = malloc(sizeof(int) * (size_t)n);
        /* A few processors far apart on the torus, so pairs repeat. */
        for (int u = 0; u < n; u++) map[u] = (int)(sm_rand_next(&rs) % 12) * 341;
        sm_cost *c = sm_cost_new(g, t, &m, map);
        for (int step = 0; step < 300; step++) {
            int u = (int)(sm_rand_next(&rs) % (unsigned)n);
            int p = sm_rand_next(&rs) % 4 ? (int)(sm_rand_next(&rs) % 12) * 341
                                         : (int)(sm_rand_next(&rs) % (unsigned)t->nprocs);
            sm_cost_move(c, u, p);
            if (step % 15 != 14) continue;
            sm_eval a, b;
            sm_cost_eval(c, &a);
            sm_eval_reference(g, t, &m, c->map, &b);
            if (m.rounds == SM_ROUNDS_COLOURING) same_colouring(c, &a, &b);
            else same(&a, &b);
        }
        free(map);
        sm_cost_free(c);
    }
    sm_grid_free(g);
    sm_topo_free(t);
}

/* Numbers that can't lie (#27): a total too large for a double is never
 * feasible, in the incremental state and the reference alike; the loaders
 * refuse the figures that would make one, and every product of sizes. */
static void non_finite_never_feasible(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(4, 2, 1, 0, 0, 0, SM_ST_5PT);
    sm_topo *t = tu_topo_text(
        "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{"
        "\"m\":{\"p0\":10,\"p_idle\":1,\"profile\":[[2,4,20],[8,6,10]]}},"
        "\"processors\":[{\"name\":\"m0\",\"type\":\"m\",\"node\":0},"
        "{\"name\":\"m1\",\"type\":\"m\",\"node\":0}],\"network\":{\"kind\":\"single\"},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":0,\"energy_per_cell\":0}}}}");
    /* Figures no loader accepts, set behind the loaders' back. */
    sm_profile_pt huge[2] = {{2, 1e308, 1e308}, {8, 1e308, 1e308}};
    sm_topo_set_profile(t, 0, huge, 2);
    sm_model m;
    sm_model_default(&m);
    int map[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    sm_cost *c = sm_cost_new(g, t, &m, map);
    sm_eval ev, ref;
    sm_cost_eval(c, &ev);
    sm_eval_reference(g, t, &m, map, &ref);
    assert_false(sm_eval_finite(&ev));
    assert_int_equal(ev.feasible, 0);
    assert_int_equal(ref.feasible, 0);
    sm_cost_free(c);
    sm_topo_free(t);
    sm_grid_free(g);

    /* The loaders: 1e308 in a profile, in JSON. */
    sm_err e;
    const char *bad =
        "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{"
        "\"m\":{\"p0\":10,\"p_idle\":1,\"profile\":[[2,1e308,20]]}},"
        "\"processors\":[{\"name\":\"m0\",\"type\":\"m\",\"node\":0}],"
        "\"network\":{\"kind\":\"single\"},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":0,\"energy_per_cell\":0}}}}";
    assert_null(sm_topo_parse_text(bad, strlen(bad), "t.json", &e));
    assert_non_null(strstr(e.msg, "types.m.profile[0]"));
    /* ... and in a CSV. */
    sm_profile_pt *pts;
    int n;
    const char *csv = "blocks,time,energy\n1,1,1e308\n";
    assert_int_equal(sm_profile_parse_csv(csv, strlen(csv), "p.csv", &pts, &n, &e), -1);
    assert_non_null(strstr(e.msg, "p.csv: line 2, column 3 (energy)"));

    /* 2^40 cells along each axis: 2^120 in all, refused before any product
     * overflows (it evaluated to energy 0, feasible). */
    sm_grid_spec sp;
    sm_grid_spec_default(&sp);
    for (int a = 0; a < 3; a++) { sp.blocks[a] = 2; sp.cells[a] = SM_MAX_CELLS_AXIS; }
    assert_null(sm_grid_build(&sp, &e));
    assert_non_null(strstr(e.msg, "cells in all"));
    sp.cells[2] = 2; /* 2^81 */
    assert_null(sm_grid_build(&sp, &e));
    /* 2^26 x 2^26 x 2 = 2^53, the most a grid may have; one more is refused.
     * (1024 x 1024 blocks: a block's face holds 2^17 halo cells, within
     * what an edge holds.) */
    sm_grid_spec one = sp;
    one.blocks[0] = one.blocks[1] = 1024;
    one.blocks[2] = 1;
    one.cells[0] = one.cells[1] = (int64_t)1 << 26;
    one.cells[2] = 2;
    assert_int_equal(sm_grid_spec_check(&one, &e), 0);
    one.cells[2] = 3;
    assert_int_equal(sm_grid_spec_check(&one, &e), -1);
}

/* sm_eval_judge: an evaluation made without a deadline, judged at one,
 * is exactly the evaluation made at it (multilevel tabu judges its best
 * lb order so, with no second cost state over the grid): every field,
 * under each rounds model, at deadlines below, at and above the
 * makespan. */
static void judged_equals_evaluated(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 6, 4, 1, 0, 0, SM_ST_27PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[3,3]}", 9);
    int n = g->ntasks, P = t->nprocs, judged = 0, feasible = 0, late = 0;
    int *map = malloc(sizeof(int) * (size_t)n);
    unsigned long long rs = 11;
    for (int trial = 0; trial < 6; trial++) {
        for (int b = 0; b < n; b++) map[b] = (int)(sm_rand_next(&rs) % (unsigned)(trial % 2 ? P : 3));
        for (int r = 0; r < 3; r++) {
            sm_model free_time;
            sm_model_default(&free_time);
            free_time.rounds = (sm_rounds_model)r;
            free_time.has_deadline = 0;
            sm_cost *c = sm_cost_new(g, t, &free_time, map);
            sm_eval ev0;
            sm_cost_eval(c, &ev0);
            sm_cost_free(c);
            const double f[] = {0.5, 1 - 1e-12, 1, 1 + 1e-10, 2};
            for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
                sm_model m = free_time;
                m.has_deadline = 1;
                m.deadline = ev0.time * f[k];
                sm_cost *d = sm_cost_new(g, t, &m, map);
                sm_eval want, got = ev0;
                sm_cost_eval(d, &want);
                sm_cost_free(d);
                sm_eval_judge(&got, &m);
                assert_memory_equal(&got, &want, sizeof want);
                judged++;
                feasible += want.feasible;
                late += !want.feasible;
            }
            /* And back without the deadline. */
            sm_eval again = ev0;
            again.feasible = !again.feasible;
            sm_eval_judge(&again, &free_time);
            assert_memory_equal(&again, &ev0, sizeof ev0);
        }
    }
    /* Both outcomes were met (else the test proves little). */
    assert_int_equal(judged, 6 * 3 * 5);
    assert_true(feasible > 0 && late > 0);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_machine_matches_reference),
        cmocka_unit_test(cuboid_lb_rows),
        cmocka_unit_test(computation_only_energy),
        cmocka_unit_test(model_options),
        cmocka_unit_test(memory_capacity),
        cmocka_unit_test(incremental_matches_reference),
        cmocka_unit_test(model_switches_and_remaps),
        cmocka_unit_test(batch_moves_match),
        cmocka_unit_test(per_processor_sums),
        cmocka_unit_test(profile_costs),
        cmocka_unit_test(non_finite_never_feasible),
        cmocka_unit_test(judged_equals_evaluated),
    };
    return cmocka_run_group_tests_name("cost", tests, NULL, NULL);
}
