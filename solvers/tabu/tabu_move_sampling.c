/* tabu_move_sampling.c - how the tabu search (tabu_task_movement.c) samples
 * a step's candidate moves: mostly around cut edges, where moves can pay,
 * some at random (for load and for emptying processors). Only the random
 * stream and the mapping are read, so the sample is the same for any
 * number of threads. */
#include "tabu_move_sampling.h"
#include "core/model/speed_proportional_quota.h"

static unsigned rnd(tabu_sampler *t, unsigned n) { return (unsigned)(sm_rand_next(t->rng) % n); }

/* The same draw as rnd(t, n) for n the modulus f holds (or f NULL): a
 * sample draws a few a candidate, a coarse search ~150 k candidates, on
 * the search's thread alone, and a 64-bit division is tens of cycles. */
static unsigned rnd_by(tabu_sampler *t, const sm_fastmod *f, unsigned n)
{
    return f ? (unsigned)sm_fastmod_rem(f, sm_rand_next(t->rng)) : rnd(t, n);
}

void sm_tabu_sampler_moduli(const sm_grid *g, int P, tabu_moduli *out)
{
    out->edges = sm_fastmod_of((uint64_t)(g->nedges > 0 ? g->nedges : 1));
    out->blocks = sm_fastmod_of((uint64_t)(g->ntasks > 0 ? g->ntasks : 1));
    out->procs = sm_fastmod_of((uint64_t)(P > 0 ? P : 1));
}

static int random_cut_edge(tabu_sampler *t, const sm_grid *g)
{
    const sm_fastmod *f = t->mod ? &t->mod->edges : NULL;
    for (int tries = 0; tries < 64 && g->nedges; tries++) {
        int e = (int)rnd_by(t, f, (unsigned)g->nedges);
        if (t->map[g->edges[e].src] != t->map[g->edges[e].dst]) return e;
    }
    return -1;
}

static int near_proc(tabu_sampler *t, const sm_grid *g, int u)
{
    int deg = g->nbr_off[u + 1] - g->nbr_off[u];
    if (deg && rnd(t, 4) != 0) return t->map[g->nbr[g->nbr_off[u] + (int)rnd(t, (unsigned)deg)]];
    return (int)rnd_by(t, t->mod ? &t->mod->procs : NULL, (unsigned)t->P);
}

int sm_tabu_sample(tabu_sampler *t, const sm_grid *g, int kind, cand *m)
{
    const int *map = t->map;
    int e = random_cut_edge(t, g);
    m->kind = kind;
    if (kind == 0) {
        if (e >= 0 && rnd(t, 4) != 0) {
            int a = g->edges[e].src, b = g->edges[e].dst;
            if (rnd(t, 2)) { m->u = a; m->p = map[b]; } else { m->u = b; m->p = map[a]; }
        } else {
            m->u = (int)rnd_by(t, t->mod ? &t->mod->blocks : NULL, (unsigned)t->n);
            m->p = (int)rnd_by(t, t->mod ? &t->mod->procs : NULL, (unsigned)t->P);
        }
        return m->p != map[m->u];
    }
    if (kind == 1) {
        if (e < 0) return 0;
        int a = g->edges[e].src, b = g->edges[e].dst;
        /* a goes to b's processor in exchange for a block there near b. */
        int deg = g->nbr_off[b + 1] - g->nbr_off[b];
        int w = deg ? g->nbr[g->nbr_off[b] + (int)rnd(t, (unsigned)deg)] : -1;
        if (w < 0 || map[w] != map[b] || w == a) w = b;
        m->u = a;
        m->v = w;
        return map[a] != map[w];
    }
    if (e < 0) return 0;
    m->u = g->edges[e].src;
    m->v = g->edges[e].dst;
    m->p = near_proc(t, g, rnd(t, 2) ? m->u : m->v);
    return !(map[m->u] == m->p && map[m->v] == m->p);
}
