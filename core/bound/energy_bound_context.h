/* energy_bound_context.h - what the parts of the energy bound share (not for use
 * outside core/bound/): the context built once per bound (the grid's
 * geometry, each processor's figures, the link levels, the classes of
 * processors that cost the same) and the functions each part offers the
 * others. The argument is at the top of energy_bound.c. */
#ifndef SM_ENERGY_BOUND_CONTEXT_H
#define SM_ENERGY_BOUND_CONTEXT_H

#include <stdint.h>
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"

struct sm_bound;   /* energy_bound.h: the parts that fill one include it */

#define BOUND_COUNTS_MAX_PROCS 8
#define BOUND_COUNTS_MAX_VECTORS 20000000.0
#define BOUND_PIECES 32
#define BOUND_SPLITS 96
#define BOUND_MAX_LEVELS (SM_NET_MAXDIMS + 2)
#define BOUND_SURFACE_LAMBDAS 9
/* Boundary variants: 0 form (1) and the exact profile, 1 form (2), 2.. the
 * surface-sharing profiles (surface_sharing_profile.c), one per lambda. */
#define BOUND_VARIANTS (2 + BOUND_SURFACE_LAMBDAS)

/* Everything both methods share. */
typedef struct {
    const sm_grid *g;
    const sm_topo *t;
    const sm_model *m;
    int n, P;
    double X;                 /* all cells */
    double dmin, dmax;
    int64_t *pre;             /* sum of the k smallest block cells, k = 0..n */
    double *a, *tpc, *pidle, *memc; /* per processor; memc < 0: no memory limit */
    int *prof;                /* per processor: its type when profiled, else -1 */
    /* Per profiled type (indexed by type): over b = 0..plen, comp(b), the
     * least comp at b or more blocks, and the least G(b)/b at b or fewer. */
    int *plen;
    double **pcomp, **psufmin, **pgmin, **pG;
    /* Grid geometry: active axes, their lengths, lines, edge weights. */
    int nax, len[3], wraps[3];
    double lines[3], w[3], wmin, wmax; /* wmax: the largest w[a] */
    int has_edges;
    double maxinc;            /* the most directed edges into or out of one block */
    /* Link levels: e[0] between any two processors, e[1] between nodes,
     * e[2..] between tree groups; group[L][p] = p's group at level L. */
    int nlev;
    double e[BOUND_MAX_LEVELS];
    double tl[BOUND_MAX_LEVELS]; /* least link time per cell at level L */
    int *group[BOUND_MAX_LEVELS];
    int ngroups[BOUND_MAX_LEVELS];
    /* Processors that cost the same at every makespan, as classes: equal
     * figures (pc, a "figure class") and, at every level, groups holding
     * the same figure classes. The knapsack runs over classes with their
     * counts: a whole Summit is a handful of items, not 36 864. */
    int npc, *pc_of, *pc_rep;
    int *gm_off[BOUND_MAX_LEVELS], *gm[BOUND_MAX_LEVELS]; /* members by group */
    int ngc[BOUND_MAX_LEVELS], *gc_of[BOUND_MAX_LEVELS], *gc_rep[BOUND_MAX_LEVELS];
    int *pc_count;            /* processors per figure class */
    int ncls, *cls_rep;
    double *cls_mult;
    int *cls_gc[BOUND_MAX_LEVELS];
    double tmin_link;         /* least link time per cell */
    int64_t qmin;             /* least quanta of a message */
    const int *iso;           /* exact profile f, or NULL */
    int dvfs;                 /* any DVFS state of each processor (SM_BOUND_DVFS) */
    int rounds_floor;         /* knapsack: the rounds' floor on the makespan (not SM_BOUND_NO_ROUNDS) */
    int integer_groups;       /* knapsack: integer group counts at a level of equal caps (not SM_BOUND_NO_INTEGER_GROUPS) */
    int whole_groups;         /* knapsack: alike groups priced whole (not SM_BOUND_NO_WHOLE_GROUPS) */
    int group_vertices;       /* whole groups: sum_G phi(b_G) at its least vertex (not SM_BOUND_NO_GROUP_VERTICES) */
    int group_split;          /* whole groups: sum_G phi(b_G) exactly on small grids (not SM_BOUND_NO_GROUP_SPLIT) */
    int rounds_all_only;      /* the floor over every processor only (SM_BOUND_ROUNDS_MEAN_ONLY, tests) */
    double *iso_rho;          /* least 2 w_min f(b)/b over 1..c, c = 0..n */
    double *hset[BOUND_VARIANTS]; /* bound_h_set(b, variant) for b = 0..hset_n (whole groups' dual) */
    /* Surface-sharing profiles (variant 2 + i): 2 H_lambda(b) for b = 0..n,
     * its least per block over 1..c, and the constant of the partition. */
    int nsurf;
    double slam[BOUND_SURFACE_LAMBDAS], sconst[BOUND_SURFACE_LAMBDAS];
    double *sprof[BOUND_SURFACE_LAMBDAS], *srho[BOUND_SURFACE_LAMBDAS];
    int hset_n;
} bctx;

typedef struct { double cost, cap; } kitem;

/* Scratch for one evaluation. */
typedef struct {
    double *capc, *capb, *gcap[BOUND_MAX_LEVELS];
    kitem *items;
    int *hslot, hsize;        /* merge_costs' table: a power of two >= 2P */
    double *busy_floor;       /* the rounds' floor with m busy nodes, m = 0..nodes (NULL: one node) */
    double busy_t2, idle_rate;
    int busy_on;
} kscratch;

double bound_lw_const(const bctx *x);
double bound_rho(const bctx *x, double cap, int variant);
double bound_h_concave(const bctx *x, double b, int variant);
double bound_h_set(const bctx *x, double b, int variant);
double bound_rho_edges(const bctx *x, double cap, int variant);
double bound_lw_const_edges(const bctx *x);
void bound_setup_grid(bctx *x);
void bound_setup_links(bctx *x);
void bound_setup_procs(bctx *x);
int bound_prof_cap(const bctx *x, int ti, double T);
void bound_setup_classes(bctx *x);
double bound_total_cap(const bctx *x, double T, kscratch *s);
double bound_knapsack(const bctx *x, double lo, double hi, int comm, int *npieces,
                             double *tbest, kscratch *s);
int bound_counts(bctx *x, struct sm_bound *out);
void bound_setup_surface(bctx *x, int enable);
void bound_free_surface(bctx *x);
double bound_variant_const(const bctx *x, int variant);
int bound_counts_dvfs(bctx *x, struct sm_bound *out);

#endif
