/* rank_halo_plan.c - ranks, copies and messages of a mapped grid (rank_halo_plan.h). */
#include "rank_halo_plan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"
#include "core/model/cost_incremental.h"
#include "core/colouring/edge_colouring.h"

void smr_kgrid(const sm_grid *g, sm_kgrid *kg)
{
    memset(kg, 0, sizeof *kg);
    kg->stencil = (sm_kstencil)g->spec.stencil; /* same order (jacobi_stencil_kernel.h) */
    kg->halo = g->spec.halo;
    for (int a = 0; a < 3; a++) {
        kg->cells[a] = g->spec.cells[a];
        kg->blocks[a] = g->spec.blocks[a];
        kg->periodic[a] = g->spec.periodic[a] ? 1 : 0;
    }
}

int smr_ranks(const sm_topo *t, const int *map, int nblocks, int nranks, smr_plan *pl,
              char *why, size_t whylen)
{
    memset(pl, 0, sizeof *pl);
    int P = t->nprocs, used = 0;
    pl->rank_of_proc = sm_xmalloc(sizeof(int) * (size_t)P);
    pl->proc_of_rank = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    for (int p = 0; p < P; p++) pl->rank_of_proc[p] = -1;
    for (int b = 0; b < nblocks; b++) pl->rank_of_proc[map[b]] = 0;
    for (int p = 0; p < P; p++)
        if (pl->rank_of_proc[p] == 0) {
            pl->proc_of_rank[used] = p;
            pl->rank_of_proc[p] = used++;
        }
    if (nranks != used && nranks != 1) {
        snprintf(why, whylen, "the mapping puts blocks on %d processors: run %d ranks (mpirun -np %d), "
                              "or 1 for the one-process reference run, not %d", used, used, used, nranks);
        return -1;
    }
    pl->nranks = nranks;
    pl->owner = sm_xmalloc(sizeof(int) * (size_t)nblocks);
    for (int b = 0; b < nblocks; b++) pl->owner[b] = nranks == 1 ? 0 : pl->rank_of_proc[map[b]];
    return 0;
}

int smr_edge_rounds(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                    int **out)
{
    int *round = sm_xmalloc(sizeof(int) * (size_t)(g->nedges ? g->nedges : 1));
    sm_model mm = *m;
    sm_cost *c = sm_cost_new(g, t, &mm, map);
    sm_schedule s;
    memset(&s, 0, sizeof s);
    sm_cost_schedule(c, &s);
    /* The entries of each processor pair (p < q), in round order. */
    int P = t->nprocs;
    int ne = s.nentries;
    int *ent_round = sm_xmalloc(sizeof(int) * (size_t)(ne ? ne : 1));
    for (int r = 0; r < s.nrounds; r++)
        for (int k = 0; k < s.rounds[r].count; k++) ent_round[s.rounds[r].first + k] = r;
    /* Order the entries by (p, q, round). */
    int *ord = sm_xmalloc(sizeof(int) * (size_t)(ne ? ne : 1));
    for (int k = 0; k < ne; k++) ord[k] = k;
    /* Buckets by the smaller processor, then an insertion sort inside
     * each (a processor has few entries next to the edges). */
    int *cnt = sm_xcalloc((size_t)P + 1, sizeof(int));
    for (int k = 0; k < ne; k++) {
        int p = s.entries[k].p < s.entries[k].q ? s.entries[k].p : s.entries[k].q;
        cnt[p + 1]++;
    }
    for (int p = 0; p < P; p++) cnt[p + 1] += cnt[p];
    int *pos = sm_xmalloc(sizeof(int) * (size_t)(P + 1));
    memcpy(pos, cnt, sizeof(int) * (size_t)(P + 1));
    for (int k = 0; k < ne; k++) {
        int p = s.entries[k].p < s.entries[k].q ? s.entries[k].p : s.entries[k].q;
        ord[pos[p]++] = k;
    }
    for (int p = 0; p < P; p++) /* by (q, round) within p */
        for (int i = cnt[p] + 1; i < cnt[p + 1]; i++) {
            int x = ord[i], j = i - 1;
            int qx = s.entries[x].p ^ s.entries[x].q ^ p;
            while (j >= cnt[p]) {
                int y = ord[j], qy = s.entries[y].p ^ s.entries[y].q ^ p;
                if (qy < qx || (qy == qx && ent_round[y] <= ent_round[x])) break;
                ord[j + 1] = y;
                j--;
            }
            ord[j + 1] = x;
        }
    /* Walk the edges in order; for each pair a cursor into its entries and
     * the quanta used so far of the current entry. */
    int64_t *used = sm_xcalloc((size_t)(ne ? ne : 1), sizeof(int64_t));
    int nr = 0;
    for (int e = 0; e < g->nedges; e++) {
        int ps = map[g->edges[e].src], pd = map[g->edges[e].dst];
        round[e] = -1;
        if (ps == pd) continue;
        int p = ps < pd ? ps : pd, q = ps ^ pd ^ p;
        double tpc, epc;
        sm_cost_link(c, ps, pd, &tpc, &epc);
        int64_t k = sm_quanta((double)g->edges[e].cells * tpc, m->round_time);
        /* The pair's entries: ord[cnt[p] ..) with the other end q. */
        int chosen = -1, last = -1;
        for (int i = cnt[p]; i < cnt[p + 1]; i++) {
            int x = ord[i];
            if ((s.entries[x].p ^ s.entries[x].q ^ p) != q) continue;
            last = x;
            if (used[x] < s.entries[x].quanta) { chosen = x; break; }
        }
        if (chosen < 0) chosen = last; /* quanta beyond the schedule's: the last entry */
        if (chosen < 0) { round[e] = 0; continue; } /* no entry (cannot happen): round 0 */
        used[chosen] += k;
        round[e] = ent_round[chosen];
        if (round[e] + 1 > nr) nr = round[e] + 1;
    }
    free(used);
    free(pos);
    free(cnt);
    free(ord);
    free(ent_round);
    sm_schedule_free(&s);
    sm_cost_free(c);
    *out = round;
    return nr;
}

static int msg_order(const void *a, const void *b)
{
    const smr_msg *x = a, *y = b;
    if (x->round != y->round) return x->round < y->round ? -1 : 1;
    if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* The directions d (kernel order) with neighbour(src, d) == dst. */
static void fill_dirs(smr_msg *m, const smr_plan *pl, const sm_kgrid *kg)
{
    m->ndirs = 0;
    m->cells = 0;
    for (int i = 0; i < pl->ndir; i++) {
        if (sm_kgrid_neighbour(kg, m->src, pl->dirs[i]) != m->dst) continue;
        m->dirs[m->ndirs++] = i;
    }
}

void smr_plan_build(smr_plan *pl, const sm_kgrid *kg, const sm_grid *g, const int *map,
                    const int *round_of_edge)
{
    (void)map;
    pl->ndir = sm_kernel_directions(kg->stencil, pl->dirs);
    int nb = g->ntasks;
    pl->mine = sm_xmalloc(sizeof(int) * (size_t)(nb ? nb : 1));
    pl->nmine = 0;
    for (int b = 0; b < nb; b++)
        if (pl->owner[b] == pl->rank) pl->mine[pl->nmine++] = b;
    /* Copies: every halo of my blocks whose neighbour is mine too. */
    pl->copies = sm_xmalloc(sizeof(smr_copy) * (size_t)(pl->nmine ? pl->nmine : 1) * (size_t)pl->ndir);
    pl->ncopies = 0;
    for (int i = 0; i < pl->nmine; i++)
        for (int d = 0; d < pl->ndir; d++) {
            int v = sm_kgrid_neighbour(kg, pl->mine[i], pl->dirs[d]);
            if (v >= 0 && pl->owner[v] == pl->rank)
                pl->copies[pl->ncopies++] = (smr_copy){pl->mine[i], v, d};
        }
    /* Messages: the task edges between my blocks and another rank's. */
    int ns = 0, nr = 0;
    for (int e = 0; e < g->nedges; e++) {
        int os = pl->owner[g->edges[e].src], od = pl->owner[g->edges[e].dst];
        if (os == od) continue;
        if (os == pl->rank) ns++;
        if (od == pl->rank) nr++;
    }
    pl->send = sm_xcalloc((size_t)(ns ? ns : 1), sizeof(smr_msg));
    pl->recv = sm_xcalloc((size_t)(nr ? nr : 1), sizeof(smr_msg));
    pl->nsend = pl->nrecv = 0;
    pl->nrounds = 1;
    for (int e = 0; e < g->nedges; e++) {
        int src = g->edges[e].src, dst = g->edges[e].dst;
        int os = pl->owner[src], od = pl->owner[dst];
        if (os == od || (os != pl->rank && od != pl->rank)) continue;
        smr_msg *m = os == pl->rank ? &pl->send[pl->nsend++] : &pl->recv[pl->nrecv++];
        m->src = src;
        m->dst = dst;
        m->peer = os == pl->rank ? od : os;
        m->round = round_of_edge && round_of_edge[e] > 0 ? round_of_edge[e] : 0;
        if (m->round + 1 > pl->nrounds) pl->nrounds = m->round + 1;
        fill_dirs(m, pl, kg);
    }
    qsort(pl->send, (size_t)pl->nsend, sizeof(smr_msg), msg_order);
    qsort(pl->recv, (size_t)pl->nrecv, sizeof(smr_msg), msg_order);
}

void smr_plan_free(smr_plan *pl)
{
    free(pl->rank_of_proc);
    free(pl->proc_of_rank);
    free(pl->owner);
    free(pl->mine);
    free(pl->copies);
    free(pl->send);
    free(pl->recv);
    memset(pl, 0, sizeof *pl);
}
