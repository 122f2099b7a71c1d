/* genetic_algorithm.c - the genetic algorithm of SPEC 4 (`ga`). A chromosome gives every
 * block a slot of the sweep-curve mapping (a permutation), so every
 * chromosome decodes to a mapping that fills the processors exactly as lb
 * sizes them. The first generation holds the sfc curves' mappings (-start)
 * and random ones. One step is one generation: the -elite best pass unchanged,
 * the rest are children of parents chosen by roulette (fitness = worst score
 * of the generation - score, plus a floor so the worst can still be drawn),
 * crossed by ordered crossover with probability -crossover and mutated by a
 * swap with probability -mutation. Children are scored on one incremental
 * objective moved to each child (cost proportional to the blocks that
 * differ times their degree), or built afresh when more than a quarter
 * differ. The best ever seen is kept.
 *
 * -variant published runs Besmer's GA as SPEC 4 lists it: a random first
 * generation, no elite, every child the ordered crossover of two parents
 * drawn by roulette, then a swap mutation with probability -mutation;
 * population and generations as given (100 and 10 by default). */
#include "genetic_algorithm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sfc_mapping.h"
#include "core/model/speed_proportional_quota.h"
#include "core/traffic/solver_objectives.h"
#include "solvers/stepper/solver_stepper.h"

void sm_ga_ox(const int *p1, const int *p2, int n, int lo, int hi, int *child,
              unsigned char *used)
{
    memset(used, 0, (size_t)n);
    for (int i = lo; i <= hi; i++) {
        child[i] = p1[i];
        used[p1[i]] = 1;
    }
    int w = (hi + 1) % n;
    for (int k = 0; k < n; k++) {
        int g = p2[(hi + 1 + k) % n];
        if (used[g]) continue;
        child[w] = g;
        w = (w + 1) % n;
    }
}

void sm_ga_swap(int *perm, int n, unsigned long long *rng, int *i, int *j)
{
    int a = (int)(sm_rand_next(rng) % (unsigned)n);
    int b = (int)(sm_rand_next(rng) % (unsigned)(n - 1));
    if (b >= a) b++;
    int t = perm[a];
    perm[a] = perm[b];
    perm[b] = t;
    *i = a;
    *j = b;
}

int sm_ga_roulette(const double *cum, int m, double r)
{
    int lo = 0, hi = m - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cum[mid] > r) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* 2^27 genes: two generations of them take 1 GiB. */
#define SM_GA_MAX_GENES (1 << 27)

typedef struct { double score; int index; } ranked;

typedef struct {
    sm_objective_kind kind;
    sm_objective *obj;      /* moved to whichever chromosome is scored */
    unsigned long long rng;
    int n, m, elite;
    int *slots;             /* slot -> processor (the sweep-curve mapping) */
    int *pop, *next;        /* m chromosomes of n genes */
    double *score, *next_score, *cum;
    int *order;             /* generation sorted by score */
    ranked *rank;           /* sorting scratch */
    int *map;               /* the generation's best, decoded (shown while stepping) */
    int *scratch;           /* a child, decoded */
    unsigned char *used;
    double best_score;
    long long generation, children, crossovers, mutations;
    long long prev_crossovers, prev_mutations; /* at the last generation, for its why */
} ga_state;

static const sm_opt_spec ga_opts[] = {
    {"population", SM_OPT_INT, "100", NULL, 2, 1e6, "chromosomes per generation"},
    {"generations", SM_OPT_INT, "10", NULL, 0, 1e9, "generations (one per step)"},
    {"mutation", SM_OPT_DOUBLE, "0.1", NULL, 0, 1, "probability that a child gets a swap mutation"},
    {"crossover", SM_OPT_DOUBLE, "0.9", NULL, 0, 1,
     "probability that two parents are crossed (else copied)"},
    {"elite", SM_OPT_INT, "1", NULL, 0, 1e6, "best chromosomes passed on unchanged"},
    {"start", SM_OPT_ENUM, "curves", "curves|sweep|random", 0, 0,
     "first generation: the five sfc curves' mappings (or the sweep curve's alone) and random ones, or all random"},
    {"objective", SM_OPT_ENUM, "hops", SM_OBJ_NAMES, 0, 0,
     "what the search minimises (cardinality: maximises)"},
    {"seed", SM_OPT_INT, "1", NULL, 0, 9.2e18, "random seed"},
    {"variant", SM_OPT_ENUM, "default", "default|published", 0, 0,
     "published: Besmer's GA (random first generation, no elite, every child crossed)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int published(const sm_solver *s)
{
    return strcmp(sm_opt_str(s, "variant"), "published") == 0;
}

static int *chrom(int *base, const ga_state *st, int i) { return base + (size_t)i * st->n; }

static void decode(const ga_state *st, const int *c, int *map)
{
    for (int b = 0; b < st->n; b++) map[b] = st->slots[c[b]];
}

/* Score a chromosome: move the objective's blocks that differ, or build
 * it afresh when most do (a move re-reads a block's edges twice). */
static double score_of(sm_solver *s, ga_state *st, const int *c)
{
    const int *cur = sm_objective_map(st->obj);
    int diff = 0;
    for (int b = 0; b < st->n; b++) diff += cur[b] != st->slots[c[b]];
    if (4 * diff > st->n) {
        decode(st, c, st->scratch);
        sm_objective_free(st->obj);
        st->obj = sm_objective_new(s->grid, s->topo, &s->model, st->kind, st->scratch);
        return sm_objective_score(st->obj);
    }
    for (int b = 0; b < st->n; b++) {
        int p = st->slots[c[b]];
        if (cur[b] != p) sm_objective_move(st->obj, b, p);
    }
    return sm_objective_score(st->obj);
}

static double user_value(const ga_state *st, double score)
{
    return st->kind == SM_OBJ_CARDINALITY ? -score : score;
}

static int by_score(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->score != b->score) return a->score < b->score ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static void sort_generation(ga_state *st)
{
    for (int i = 0; i < st->m; i++) st->rank[i] = (ranked){st->score[i], i};
    qsort(st->rank, (size_t)st->m, sizeof *st->rank, by_score);
    for (int i = 0; i < st->m; i++) st->order[i] = st->rank[i].index;
}

/* After a generation is scored: sort it, keep a better best, publish. */
static void settle(sm_solver *s, ga_state *st)
{
    sort_generation(st);
    int top = st->order[0];
    double mean = 0;
    for (int i = 0; i < st->m; i++) mean += st->score[i];
    mean /= st->m;
    decode(st, chrom(st->pop, st, top), st->map);
    int improved = !s->has_best || st->score[top] < st->best_score - 1e-12 * (1 + fabs(st->best_score));
    if (improved) {
        st->best_score = st->score[top];
        sm_solver_set_best(s, st->map);
        s->current = s->best;
    } else {
        sm_solver_evaluate(s, st->map, &s->current);
    }
    s->has_current = 1;
    s->current_map = st->map;
    sm_solver_set_stat(s, "generation", (double)st->generation);
    sm_solver_set_stat(s, "best_value", user_value(st, st->best_score));
    sm_solver_set_stat(s, "generation_best", user_value(st, st->score[top]));
    /* The generation's best is where the search stands now. */
    sm_solver_set_stat(s, "objective_value", user_value(st, st->score[top]));
    sm_solver_set_stat(s, "generation_mean", user_value(st, mean));
    sm_solver_set_stat(s, "generation_worst", user_value(st, st->score[st->order[st->m - 1]]));
    sm_solver_set_stat(s, "crossovers", (double)st->crossovers);
    sm_solver_set_stat(s, "mutations", (double)st->mutations);
    sm_solver_set_stat(s, "objective_value", user_value(st, st->score[top]));
    /* Generation 0 is the initial population: no selection, crossover
     * or mutation was done yet. */
    if (st->generation == 0)
        sm_solver_why(s, "generation 0: the initial population of %d chromosomes; its best is the first best",
                      st->m);
    else
        sm_solver_why(s, "generation %lld: roulette selection, ordered crossover (%lld), swap mutation (%lld); %s",
                      st->generation, (long long)(st->crossovers - st->prev_crossovers),
                      (long long)(st->mutations - st->prev_mutations),
                      improved ? "its best child beats the best" : "no child beats the best");
    st->prev_crossovers = st->crossovers;
    st->prev_mutations = st->mutations;
    snprintf(s->last_move, sizeof s->last_move, "generation %lld: best %g, mean %g%s",
             st->generation, user_value(st, st->score[top]), user_value(st, mean),
             improved && st->generation ? " (new best)" : "");
}

/* The chromosome of curve c's mapping: each block takes the next free slot
 * of its processor. 0 when the curve sizes the processors differently. */
static int encode_curve(sm_solver *s, ga_state *st, sm_curve c, int *gene)
{
    int n = st->n, P = s->topo->nprocs, ok = 1;
    sm_err e;
    if (sm_curve_map(s->grid, s->topo, c, 1, SM_CURVE_SWEEP, SM_SPEEDS_EXACT, st->map, &e))
        return 0;
    int *off = sm_xcalloc((size_t)P + 1, sizeof(int)), *slot_of = sm_xmalloc(sizeof(int) * (size_t)n);
    for (int j = 0; j < n; j++) off[st->slots[j] + 1]++;
    for (int p = 0; p < P; p++) off[p + 1] += off[p];
    int *fill = sm_xcalloc((size_t)P, sizeof(int));
    for (int j = 0; j < n; j++) slot_of[off[st->slots[j]] + fill[st->slots[j]]++] = j;
    memset(fill, 0, sizeof(int) * (size_t)P);
    for (int b = 0; b < n && ok; b++) {
        int p = st->map[b];
        if (off[p] + fill[p] >= off[p + 1]) ok = 0;
        else gene[b] = slot_of[off[p] + fill[p]++];
    }
    free(off);
    free(slot_of);
    free(fill);
    return ok;
}

static int ga_init(sm_solver *s, sm_err *e)
{
    ga_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    int n = s->grid->ntasks, m = (int)sm_opt_int(s, "population");
    st->n = n;
    st->m = m;
    st->elite = published(s) ? 0 : (int)sm_opt_int(s, "elite");
    if (st->elite >= m) {
        sm_err_set(e, "ga: -elite %d must be below -population %d", st->elite, m);
        return -1;
    }
    /* Two generations are held: refuse what cannot fit rather than abort. */
    if ((double)m * n > SM_GA_MAX_GENES) {
        sm_err_set(e, "ga: -population %d x %d blocks is %.0f genes a generation, more than %.0f",
                   m, n, (double)m * n, (double)SM_GA_MAX_GENES);
        return -1;
    }
    sm_objective_parse(sm_opt_str(s, "objective"), &st->kind);
    if (sm_objective_memory_check(s->grid, s->topo, st->kind, 1, "ga", e)) return -1;
    st->rng = (unsigned long long)sm_opt_int(s, "seed") * 0x9e3779b97f4a7c15ull + 1;
    size_t nn = (size_t)(n ? n : 1), genes = nn * (size_t)m;
    st->slots = sm_xmalloc(sizeof(int) * nn);
    if (sm_curve_map(s->grid, s->topo, SM_CURVE_SWEEP, 1, SM_CURVE_SWEEP, SM_SPEEDS_EXACT,
                     st->slots, e))
        return -1;
    st->map = sm_xmalloc(sizeof(int) * nn);
    st->scratch = sm_xmalloc(sizeof(int) * nn);
    if (n < 2) { /* one mapping only */
        sm_solver_finish_with(s, st->slots);
        return 0;
    }
    st->pop = sm_xmalloc(sizeof(int) * genes);
    st->next = sm_xmalloc(sizeof(int) * genes);
    st->score = sm_xmalloc(sizeof(double) * (size_t)m);
    st->next_score = sm_xmalloc(sizeof(double) * (size_t)m);
    st->cum = sm_xmalloc(sizeof(double) * (size_t)m);
    st->order = sm_xmalloc(sizeof(int) * (size_t)m);
    st->rank = sm_xmalloc(sizeof(ranked) * (size_t)m);
    st->used = sm_xmalloc(nn);
    st->obj = sm_objective_new(s->grid, s->topo, &s->model, st->kind, st->slots);
    const char *start = published(s) ? "random" : sm_opt_str(s, "start");
    int seeded = strcmp(start, "random") == 0 ? 0 : strcmp(start, "sweep") == 0 ? 1 : 5;
    int nseeds = 0;
    if (seeded) { /* the identity is the sweep curve */
        int *c = chrom(st->pop, st, nseeds++);
        for (int b = 0; b < n; b++) c[b] = b;
    }
    for (int k = 1; k < seeded && nseeds < m; k++)
        nseeds += encode_curve(s, st, (sm_curve)k, chrom(st->pop, st, nseeds));
    for (int i = 0; i < m; i++) {
        int *c = chrom(st->pop, st, i);
        if (i >= nseeds) {
            for (int b = 0; b < n; b++) c[b] = b;
            for (int b = n - 1; b > 0; b--) { /* Fisher-Yates */
                int j = (int)(sm_rand_next(&st->rng) % (unsigned)(b + 1)), t = c[b];
                c[b] = c[j];
                c[j] = t;
            }
        }
        st->score[i] = score_of(s, st, c);
    }
    settle(s, st);
    sm_solver_set_stat(s, "start_value", user_value(st, st->best_score));
    if (sm_opt_int(s, "generations") == 0) sm_solver_finish_with(s, s->best_map);
    return 0;
}

static void roulette_weights(ga_state *st)
{
    double best = st->score[st->order[0]], worst = st->score[st->order[st->m - 1]];
    /* The floor keeps the worst drawable; equal scores make it uniform. */
    double floor = worst > best ? (worst - best) / st->m : 1;
    double acc = 0;
    for (int i = 0; i < st->m; i++) {
        acc += worst - st->score[i] + floor;
        st->cum[i] = acc;
    }
}

static int pick(ga_state *st)
{
    return sm_ga_roulette(st->cum, st->m, sm_rand_unit(&st->rng) * st->cum[st->m - 1]);
}

static void ga_step(sm_solver *s)
{
    ga_state *st = s->priv;
    int n = st->n, m = st->m;
    double pc = published(s) ? 1.0 : sm_opt_double(s, "crossover"), pm = sm_opt_double(s, "mutation");
    /* Rebuilt once a generation so energy and time sums do not drift. */
    sm_objective_free(st->obj);
    st->obj = sm_objective_new(s->grid, s->topo, &s->model, st->kind, s->best_map);
    for (int k = 0; k < st->elite; k++) {
        memcpy(chrom(st->next, st, k), chrom(st->pop, st, st->order[k]), sizeof(int) * (size_t)n);
        st->next_score[k] = st->score[st->order[k]];
    }
    roulette_weights(st);
    for (int k = st->elite; k < m; k += 2) {
        if (s->interrupt && *s->interrupt) { /* the generation is dropped, the best kept */
            sm_solver_stop(s);
            return;
        }
        const int *a = chrom(st->pop, st, pick(st)), *b = chrom(st->pop, st, pick(st));
        int *c1 = chrom(st->next, st, k), *c2 = k + 1 < m ? chrom(st->next, st, k + 1) : NULL;
        if (sm_rand_unit(&st->rng) < pc) {
            int lo = (int)(sm_rand_next(&st->rng) % (unsigned)n);
            int hi = (int)(sm_rand_next(&st->rng) % (unsigned)n);
            if (lo > hi) { int t = lo; lo = hi; hi = t; }
            sm_ga_ox(a, b, n, lo, hi, c1, st->used);
            if (c2) sm_ga_ox(b, a, n, lo, hi, c2, st->used);
            st->crossovers++;
        } else {
            memcpy(c1, a, sizeof(int) * (size_t)n);
            if (c2) memcpy(c2, b, sizeof(int) * (size_t)n);
        }
        for (int c = 0; c < (c2 ? 2 : 1); c++) {
            int *ch = c ? c2 : c1, i, j;
            if (sm_rand_unit(&st->rng) < pm) {
                sm_ga_swap(ch, n, &st->rng, &i, &j);
                st->mutations++;
            }
            st->next_score[k + c] = score_of(s, st, ch);
            st->children++;
        }
    }
    int *tp = st->pop; st->pop = st->next; st->next = tp;
    double *ts = st->score; st->score = st->next_score; st->next_score = ts;
    st->generation++;
    settle(s, st);
    sm_solver_set_stat(s, "children", (double)st->children);
    if (st->generation >= sm_opt_int(s, "generations")) {
        memcpy(st->map, s->best_map, sizeof(int) * (size_t)n);
        sm_solver_finish_with(s, st->map);
    }
}

static void ga_release(sm_solver *s)
{
    ga_state *st = s->priv;
    if (!st) return;
    sm_objective_free(st->obj);
    free(st->slots);
    free(st->pop);
    free(st->next);
    free(st->score);
    free(st->next_score);
    free(st->cum);
    free(st->order);
    free(st->rank);
    free(st->map);
    free(st->scratch);
    free(st->used);
    free(st);
}

const sm_solver_ops sm_solver_ga = {
    "ga", "genetic algorithm: roulette selection, ordered crossover, swap mutation (one step, one generation)",
    ga_opts, ga_init, ga_step, ga_release, NULL,
};
