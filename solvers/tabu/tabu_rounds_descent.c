/* tabu_rounds_descent.c - where the rounds set the makespan, the tabu
 * search's step that lowers them.
 *
 * Under overlap the makespan is the rounds (the busiest processor's
 * degree D, in quanta) once they pass the compute, and D is a maximum
 * shared by several processors: a single move lowers one of them and the
 * energy does not see it until the last one is lowered, so the search
 * walks a plateau blind (32 summit-like nodes, inter-node links x1, 4096
 * blocks: 1000 steps end at 328 rounds, 20000 at 320, with the mean
 * degree 238). This step lowers them all at once: for each processor at
 * D in turn, the best scoring move of one of its boundary blocks to a
 * neighbour's processor that leaves it below D and brings no other to D
 * (nor one already below D back to it); the compound is offered when
 * every processor at D was lowered, so D fell, and it scores better than
 * the mapping it left. It reads the mapping and the cost state only: the
 * same compound for the same mapping, on any replica. */
#include <stdlib.h>
#include <string.h>
#include "tabu_rounds_descent.h"

void sm_rounds_descent_init(sm_rounds_descent *d)
{
    memset(d, 0, sizeof *d);
    d->stuck = -1;
}

void sm_rounds_descent_free(sm_rounds_descent *d)
{
    free(d->moves);
    free(d->at);
    free(d->off);
    free(d->blk);
    free(d->in_set);
    free(d->before);
    free(d->touched);
    memset(d, 0, sizeof *d);
    d->stuck = -1;
}

static void scratch(sm_rounds_descent *d, const sm_grid *g, int P)
{
    if (d->P != P) {
        free(d->at);
        free(d->off);
        free(d->in_set);
        d->at = sm_xmalloc(sizeof(int) * (size_t)P);
        d->off = sm_xmalloc(sizeof(int) * (size_t)(P + 1));
        d->in_set = sm_xcalloc((size_t)P, 1);
        d->P = P;
    }
    if (d->nblk_cap < g->ntasks) {
        free(d->blk);
        d->blk = sm_xmalloc(sizeof(int) * (size_t)g->ntasks);
        d->nblk_cap = g->ntasks;
    }
    if (d->grid == g) return;
    d->grid = g;
    int most = 0;
    for (int u = 0; u < g->ntasks; u++)
        if (g->nbr_off[u + 1] - g->nbr_off[u] > most) most = g->nbr_off[u + 1] - g->nbr_off[u];
    if (d->touched_cap < most + 2) {
        free(d->touched);
        free(d->before);
        d->touched = sm_xmalloc(sizeof(int) * (size_t)(most + 2));
        d->before = sm_xmalloc(sizeof(int64_t) * (size_t)(most + 2));
        d->touched_cap = most + 2;
    }
}

/* Block u moved from -> to, noted as tabu's move (kind 0; q: where it
 * came from, to undo). */
static void push_move(sm_rounds_descent *d, int u, int to, int from)
{
    if (d->nmoves == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 16;
        d->moves = sm_xrealloc(d->moves, sizeof *d->moves * (size_t)d->cap);
    }
    d->moves[d->nmoves++] = (cand){0, u, 0, to, from};
}

/* The processors whose degree moving u to q changes (u's, q and its
 * neighbours'), with their degrees now, into d->touched / d->before. */
static int note_touched(sm_rounds_descent *d, const sm_cost *c, int u, int q)
{
    const sm_grid *g = c->grid;
    int n = 0;
    d->touched[n++] = c->map[u];
    d->touched[n++] = q;
    for (int i = g->nbr_off[u]; i < g->nbr_off[u + 1]; i++) d->touched[n++] = c->map[g->nbr[i]];
    for (int i = 0; i < n; i++) d->before[i] = c->deg[d->touched[i]];
    return n;
}

/* After the move: u's old processor below D, none above D, and none that
 * was below D at D. */
static int keeps_below(const sm_rounds_descent *d, const sm_cost *c, int n, int64_t D)
{
    if (c->deg[d->touched[0]] >= D) return 0;
    for (int i = 1; i < n; i++) {
        int64_t now = c->deg[d->touched[i]];
        if (now > D || (d->before[i] < D && now >= D)) return 0;
    }
    return 1;
}

int sm_rounds_descent_find(sm_rounds_descent *d, sm_cost *c, const tabu_score *now, sm_rounds_score_fn score,
                           void *ctx)
{
    const sm_grid *g = c->grid;
    int P = c->nprocs, n = g->ntasks;
    d->nmoves = 0;
    if (P < 2 || n < 2) return 0;
    scratch(d, g, P);
    int64_t D = 0;
    for (int p = 0; p < P; p++)
        if (c->deg[p] > D) D = c->deg[p];
    if (D == 0) return 0;
    /* The processor where the last try stopped first, if it is at D
     * again: a try that fails again then fails after one processor (the
     * search tries at every step without an improving move). */
    int nat = 0, stuck = d->stuck >= 0 && d->stuck < P && c->deg[d->stuck] == D ? d->stuck : -1;
    if (stuck >= 0) d->at[nat++] = stuck, d->in_set[stuck] = 1;
    for (int p = 0; p < P; p++)
        if (c->deg[p] == D && p != stuck) d->at[nat++] = p, d->in_set[p] = 1;
    /* The blocks of the processors at D, by processor then block. */
    memset(d->off, 0, sizeof(int) * (size_t)(P + 1));
    for (int u = 0; u < n; u++)
        if (d->in_set[c->map[u]]) d->off[c->map[u] + 1]++;
    for (int p = 0; p < P; p++) d->off[p + 1] += d->off[p];
    for (int u = 0; u < n; u++)
        if (d->in_set[c->map[u]]) d->blk[d->off[c->map[u]]++] = u;
    for (int p = P; p > 0; p--) d->off[p] = d->off[p - 1];
    d->off[0] = 0;
    for (int i = 0; i < nat; i++) d->in_set[d->at[i]] = 0;

    sm_cost_trial_begin(c);
    int lowered = 1;
    for (int i = 0; i < nat && lowered; i++) {
        int p = d->at[i];
        if (c->deg[p] < D) continue; /* an earlier move lowered it */
        int best_u = -1, best_q = -1;
        tabu_score best = {0, 0, 0, 0};
        for (int k = d->off[p]; k < d->off[p + 1]; k++) {
            int u = d->blk[k];
            if (c->map[u] != p) continue;
            for (int j = g->nbr_off[u]; j < g->nbr_off[u + 1]; j++) {
                int q = c->map[g->nbr[j]], seen = 0;
                if (q == p) continue;
                for (int h = g->nbr_off[u]; h < j && !seen; h++) seen = c->map[g->nbr[h]] == q;
                if (seen) continue;
                int nt = note_touched(d, c, u, q);
                sm_cost_move(c, u, q);
                if (keeps_below(d, c, nt, D)) {
                    tabu_score sc = score(ctx, c);
                    if (best_u < 0 || tabu_better(&sc, &best)) best = sc, best_u = u, best_q = q;
                }
                sm_cost_move(c, u, p);
            }
        }
        if (best_u < 0) lowered = 0, d->stuck = p;
        else {
            sm_cost_move(c, best_u, best_q);
            push_move(d, best_u, best_q, p);
        }
    }
    int found = 0;
    if (lowered) {
        d->stuck = -1;
        d->sc = score(ctx, c);
        d->to = 0;
        for (int p = 0; p < P; p++)
            if (c->deg[p] > d->to) d->to = c->deg[p];
        found = d->to < D && tabu_better(&d->sc, now);
    }
    for (int i = d->nmoves - 1; i >= 0; i--) sm_cost_move(c, d->moves[i].u, d->moves[i].q);
    sm_cost_trial_end(c);
    d->from = D;
    d->busiest = nat;
    if (!found) d->nmoves = 0;
    return found;
}
