/* test_block_counts_partition_per_step.c - partitions by counts kept per step
 * (solvers/stepper/block_counts_partition_per_step.h): every snapshot reads back as it was
 * noted, whether its front grew, had its last point replaced or dropped,
 * or was rebuilt; an unchanged partition shares the last snapshot. */
#include "tests/unit/testutil.h"
#include "solvers/stepper/block_counts_partition_per_step.h"

#define P 3
#define MAXF 40

typedef struct {
    int counts[P];
    double time, energy, total;
} pt;

/* A partition with fronts f[0..nf) and dyn d[0..nd). */
typedef struct {
    sm_partition part;
    int counts[P];
    sm_part_point front[MAXF], dyn[MAXF];
    int fcounts[MAXF][P], dcounts[MAXF][P];
} owned;

static void set_point(sm_part_point *o, int *store, const pt *q)
{
    memcpy(store, q->counts, sizeof q->counts);
    *o = (sm_part_point){store, q->time, q->energy, q->total};
}

static void fill(owned *w, const pt *head, const pt *f, int nf, const pt *d, int nd)
{
    memset(w, 0, sizeof *w);
    w->part.nprocs = P;
    memcpy(w->counts, head->counts, sizeof w->counts);
    w->part.counts = w->counts;
    w->part.time = head->time;
    w->part.energy = head->energy;
    w->part.total = head->total;
    w->part.base_power = 7;
    w->part.has_front = 1;
    w->part.has_total = nd > 0;
    for (int i = 0; i < nf; i++) set_point(&w->front[i], w->fcounts[i], &f[i]);
    for (int i = 0; i < nd; i++) set_point(&w->dyn[i], w->dcounts[i], &d[i]);
    w->part.front = w->front;
    w->part.nfront = nf;
    w->part.dyn = w->dyn;
    w->part.ndyn = nd;
}

static void same(const sm_partition *a, const sm_partition *b)
{
    assert_int_equal(a->nprocs, b->nprocs);
    assert_memory_equal(a->counts, b->counts, sizeof(int) * P);
    assert_true(a->time == b->time && a->energy == b->energy && a->total == b->total);
    assert_true(a->base_power == b->base_power);
    assert_int_equal(a->has_front, b->has_front);
    assert_int_equal(a->has_total, b->has_total);
    assert_int_equal(a->nfront, b->nfront);
    assert_int_equal(a->ndyn, b->ndyn);
    for (int i = 0; i < a->nfront; i++) {
        assert_memory_equal(a->front[i].counts, b->front[i].counts, sizeof(int) * P);
        assert_true(a->front[i].time == b->front[i].time && a->front[i].energy == b->front[i].energy &&
                    a->front[i].total == b->front[i].total);
    }
    for (int i = 0; i < a->ndyn; i++) {
        assert_memory_equal(a->dyn[i].counts, b->dyn[i].counts, sizeof(int) * P);
        assert_true(a->dyn[i].time == b->dyn[i].time && a->dyn[i].energy == b->dyn[i].energy);
    }
}

static pt rnd_pt(unsigned long long *r)
{
    pt q;
    for (int p = 0; p < P; p++) q.counts[p] = (int)(sm_rand_next(r) % 50);
    q.time = (double)(sm_rand_next(r) % 1000);
    q.energy = (double)(sm_rand_next(r) % 1000);
    q.total = q.energy + 7 * q.time;
    return q;
}

/* Fronts that grow, lose or replace their last point, or restart, in a
 * random order; every noted state reads back exactly, in any order. */
static void test_fronts_read_back(void **st)
{
    (void)st;
    enum { STEPS = 400 };
    unsigned long long r = 12345;
    sm_part_history *ph = sm_part_history_new(P);
    static owned kept[STEPS];
    int idx[STEPS];
    pt f[MAXF], d[MAXF];
    int nf = 0, nd = 0, snaps = 0;
    pt head = rnd_pt(&r);
    for (int s = 0; s < STEPS; s++) {
        int what = (int)(sm_rand_next(&r) % 8);
        if (what <= 2 && nf < MAXF) f[nf++] = rnd_pt(&r);          /* a new point */
        else if (what == 3 && nf) f[nf - 1] = rnd_pt(&r);           /* the last replaced */
        else if (what == 4 && nf) nf--;                              /* the last dropped */
        else if (what == 5 && nd < MAXF) d[nd++] = rnd_pt(&r);
        else if (what == 6) head = rnd_pt(&r);                       /* counts only */
        else if (what == 7 && sm_rand_next(&r) % 10 == 0) nf = 0;   /* rebuilt */
        fill(&kept[s], &head, f, nf, d, nd);
        idx[s] = sm_part_history_note(ph, &kept[s].part);
        if (s && idx[s] != idx[s - 1]) snaps++;
        /* Unchanged: the same snapshot. */
        assert_int_equal(sm_part_history_note(ph, &kept[s].part), idx[s]);
    }
    assert_true(snaps > STEPS / 2);
    for (int s = STEPS - 1; s >= 0; s--) same(sm_part_history_get(ph, idx[s]), &kept[s].part);
    for (int s = 0; s < STEPS; s += 7) same(sm_part_history_get(ph, idx[s]), &kept[s].part);
    assert_null(sm_part_history_get(ph, -1));
    sm_part_history_free(ph);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fronts_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
