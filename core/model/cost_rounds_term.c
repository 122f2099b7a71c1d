/* cost_rounds_term.c - the rounds model "colouring" kept up to date as blocks
 * move (SPEC 3; issue 14).
 *
 * The first evaluation builds both schedules (M and M1) in full; after
 * that every cut edge that comes or goes is noted per processor pair in
 * O(1), and the next evaluation repairs the schedules locally
 * (edge_colouring.c's repair in place) for the pairs whose multiplicity really changed (a
 * search's trial move and its undo cancel and cost nothing). At evaluation a schedule is rebuilt in full only when
 * - at most four processors communicate (the build is exact there, and
 *   cheap), or
 * - its colours exceed the maximum degree by more than the last full
 *   build's did, plus a slack of max(1, Delta/50) quanta (the repair
 *   drifted from what a rebuild achieves).
 * So what an evaluation reports is a proper colouring covering M with
 * colours <= Delta + (colours - Delta of the last full build) +
 * max(1, Delta/50), exact for m <= 4, beside a certified lower bound:
 * the larger of Delta and the last rebuild's bound less the quanta taken
 * away since (the full bound costs as much as a rebuild).
 *
 * It knows nothing of sm_cost: what it needs of the cost state comes in an
 * sm_colouring_view (cost_incremental.c fills one), so the dependency runs one way. */
#include "cost_rounds_term.h"

#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

struct sm_cost_colouring {
    int live;
    /* Changes since the last evaluation, per processor-pair slot: a
     * trial move and its undo cancel here and cost nothing. */
    int64_t *pend[2];
    char *dirty;
    int *dirty_list, ndirty, cap;
    sm_isched *s[2];    /* M, M1 */
    int64_t excess[2];  /* colours - Delta at the last full build */
    int64_t lower[2];   /* its certified lower bound */
    int64_t removed[2]; /* quanta taken away since: each lowers it by at most one */
    long rebuilds;
};

struct sm_cost_colouring *sm_cost_colouring_new(int nprocs)
{
    struct sm_cost_colouring *h = sm_xcalloc(1, sizeof *h);
    h->s[0] = sm_isched_new(nprocs);
    h->s[1] = sm_isched_new(nprocs);
    return h;
}

void sm_cost_colouring_free(struct sm_cost_colouring *h)
{
    if (!h) return;
    sm_isched_free(h->s[0]);
    sm_isched_free(h->s[1]);
    free(h->pend[0]);
    free(h->pend[1]);
    free(h->dirty);
    free(h->dirty_list);
    free(h);
}

int sm_cost_colouring_live(const struct sm_cost_colouring *h) { return h->live; }

void sm_cost_colouring_edge(struct sm_cost_colouring *h, int slot, int64_t dk, int64_t dm)
{
    if (!h->live) return;
    if (slot >= h->cap) {
        int cap = h->cap ? h->cap : 64;
        while (cap <= slot) cap *= 2;
        for (int k = 0; k < 2; k++) {
            h->pend[k] = sm_xrealloc(h->pend[k], sizeof(int64_t) * (size_t)cap);
            for (int i = h->cap; i < cap; i++) h->pend[k][i] = 0;
        }
        h->dirty = sm_xrealloc(h->dirty, (size_t)cap);
        memset(h->dirty + h->cap, 0, (size_t)(cap - h->cap));
        h->dirty_list = sm_xrealloc(h->dirty_list, sizeof(int) * (size_t)cap);
        h->cap = cap;
    }
    h->pend[0][slot] += dk;
    h->pend[1][slot] += dm;
    if (!h->dirty[slot]) {
        h->dirty[slot] = 1;
        h->dirty_list[h->ndirty++] = slot;
    }
}

static void clear_pending(struct sm_cost_colouring *h)
{
    for (int i = 0; i < h->ndirty; i++) {
        int slot = h->dirty_list[i];
        h->pend[0][slot] = h->pend[1][slot] = 0;
        h->dirty[slot] = 0;
    }
    h->ndirty = 0;
}

/* Apply the pending changes: removals first, so additions find room. */
static void apply_pending(struct sm_cost_colouring *h, const sm_colouring_view *v)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < h->ndirty; i++) {
            int slot = h->dirty_list[i];
            for (int k = 0; k < 2; k++) {
                int64_t d = h->pend[k][slot];
                if ((pass == 0 && d < 0) || (pass == 1 && d > 0)) {
                    sm_isched_add(h->s[k], v->pair_p[slot], v->pair_q[slot], d);
                    if (d < 0) h->removed[k] -= d;
                }
            }
        }
    clear_pending(h);
}

static void rebuild(struct sm_cost_colouring *h, const sm_colouring_view *v, int msg)
{
    int n;
    sm_pairmu *pl = v->pairs(v->ctx, msg, &n);
    sm_schedule full;
    int64_t lb;
    sm_schedule_build(pl, n, v->nprocs, &full, &lb);
    free(pl);
    sm_isched_load(h->s[msg], &full);
    h->excess[msg] = full.colours - v->delta[msg];
    h->lower[msg] = lb;
    h->removed[msg] = 0;
    sm_schedule_free(&full);
    h->rebuilds++;
}

/* How far the repair may drift beyond the last rebuild's excess: 2 % of
 * the maximum degree, at least one quantum. */
static int64_t slack(int64_t delta) { return delta / 50 > 1 ? delta / 50 : 1; }

/* Bring schedule msg up to the rule above. */
static void sync(struct sm_cost_colouring *h, const sm_colouring_view *v, int msg)
{
    int64_t delta = v->delta[msg];
    apply_pending(h, v);
    if (!h->live) {
        rebuild(h, v, 0);
        rebuild(h, v, 1);
        h->live = 1;
    } else if (v->active[msg] <= 4 || sm_isched_colours(h->s[msg]) - delta > h->excess[msg] + slack(delta)) {
        rebuild(h, v, msg);
    }
}

void sm_colouring_rounds(struct sm_cost_colouring *h, const sm_colouring_view *v, int messages,
                         int64_t *rounds, int64_t *lower)
{
    sync(h, v, messages);
    int64_t delta = v->delta[messages];
    int64_t col = sm_isched_colours(h->s[messages]);
    /* The rebuild's bound less what was taken away since (removing one
     * quantum lowers the chromatic index by at most one), and Delta. */
    int64_t lb = h->lower[messages] - h->removed[messages];
    if (lb < delta) lb = delta;
    if (lb > col) lb = col;
    *rounds = col;
    *lower = lb;
}

void sm_colouring_refill(struct sm_cost_colouring *h, const sm_colouring_view *v, sm_schedule *s)
{
    int64_t rounds, lower;
    sm_colouring_rounds(h, v, 0, &rounds, &lower);
    sm_isched_refill(h->s[0], s);
    s->lower = lower;
}

long sm_colouring_rebuilds(const struct sm_cost_colouring *h) { return h->rebuilds; }

void sm_colouring_adopt(struct sm_cost_colouring *h, struct sm_cost_colouring *src,
                        const sm_colouring_view *src_view)
{
    for (int k = 0; k < 2; k++) sync(src, src_view, k);   /* src's schedules up to date (builds them if new) */
    for (int k = 0; k < 2; k++) {
        sm_isched_copy(h->s[k], src->s[k]);
        h->excess[k] = src->excess[k];
        h->lower[k] = src->lower[k];
        h->removed[k] = src->removed[k];
    }
    /* Edges noted before were against no schedule: nothing is pending. */
    clear_pending(h);
    h->live = 1;
}
