/* comm_exact_instances.h - the machines of bench_comm_exact.c and its
 * test: N nodes built like samples/summit-like.json's (its POWER9 and
 * V100 types as written in summit-like-topology.json, its intra-node
 * links, a tree network), each of 1 POWER9 + 3 V100 (kind "4"), the
 * full 2 + 6 (kind "8") or 1 + 1 (kind "2"), the inter-node link energy scaled by factor
 * (bench_comm_nodes.tcl's topology proc). Paths from the repository's
 * top. */
#ifndef SM_COMM_EXACT_INSTANCES_H
#define SM_COMM_EXACT_INSTANCES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/bound/energy_bound.h"
#include "core/io/topology_file.h"
#include "solvers/solver_registry.h"
#include "tests/bench/exact_mapping_branch_and_bound.h"

/* summit-like-topology.json's "types" object as text (malloc'ed), or NULL. */
static inline char *ce_types_text(void)
{
    FILE *f = fopen("samples/topologies/summit-like-topology.json", "r");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    char *a = strstr(buf, "\"types\""), *b = strstr(buf, "\"processors\"");
    if (!a || !b || b < a) return NULL;
    a += 8;
    while (b > a && (b[-1] == ' ' || b[-1] == '\n' || b[-1] == '\t' || b[-1] == ',')) b--;
    size_t n = (size_t)(b - a);
    char *out = malloc(n + 1);
    memcpy(out, a, n);
    out[n] = 0;
    return out;
}

/* The machine; NULL (and a message) when the text does not load. */
static inline sm_topo *ce_machine(const char *types, int nodes, const char *kind, double factor)
{
    static const char *four[] = {"p9_0", "v100_0", "v100_1", "v100_2"};
    static const char *eight[] = {"p9_0", "p9_1", "v100_0", "v100_1", "v100_2", "v100_3", "v100_4", "v100_5"};
    /* kind "2" (1 POWER9 + 1 V100): tiny machines the tests enumerate. */
    const char **names = strcmp(kind, "8") == 0 ? eight : four;
    int per = atoi(kind);
    if (per != 2 && per != 4 && per != 8) return NULL;
    size_t cap = strlen(types) + 4096 + (size_t)nodes * per * 96;
    char *text = malloc(cap);
    size_t k = (size_t)snprintf(text, cap, "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":%s,\"processors\":[",
                                types);
    for (int n = 0; n < nodes; n++)
        for (int i = 0; i < per; i++)
            k += (size_t)snprintf(text + k, cap - k, "%s{\"name\":\"n%02d.%s\",\"type\":\"%s\",\"node\":%d}",
                                  n || i ? "," : "", n, names[i], names[i][0] == 'p' ? "power9" : "v100", n);
    snprintf(text + k, cap - k,
             "],\"network\":{\"kind\":\"tree\",\"group_sizes\":[18]},"
             "\"links\":{\"intra\":{\"power9-v100\":{\"time_per_cell\":1.6e-10,\"energy_per_cell\":1.04e-8},"
             "\"v100-v100\":{\"time_per_cell\":1.6e-10,\"energy_per_cell\":1.04e-8},"
             "\"power9-power9\":{\"time_per_cell\":1.25e-10,\"energy_per_cell\":1.28e-8}},"
             "\"inter\":[{\"time_per_cell\":3.4782608695652173e-10,\"energy_per_cell\":%.6g},"
             "{\"time_per_cell\":3.4782608695652173e-10,\"energy_per_cell\":%.6g}]}}",
             4.8e-8 * factor, 7.2e-8 * factor);
    sm_err e;
    sm_topo *t = sm_topo_parse_text(text, strlen(text), "bench", &e);
    if (!t) fprintf(stderr, "topology: %s\n", e.msg);
    free(text);
    return t;
}


/* One instance: blocks of side^3 cells on nodes of kind, inter xfactor. */
typedef struct ce_row {
    int blocks[3];
    int side;
    int nodes;
    const char *kind;
    double factor;
} ce_row;

typedef struct ce_out {
    int n, P;
    sm_eval tabu;      /* tabu at its own deadline (default options) */
    int *tabu_map;
    int tabu_nodes;    /* nodes its mapping keeps busy */
    double tabu_s, bound_s;
    sm_bound bound;    /* model bound at tabu's own makespan */
    sm_bound bound_s7; /* the same without session 8's terms (surface sharing, exact split) */
    xo_result exact;   /* the optimum at that makespan */
    sm_eval opt;       /* its evaluation (when found) */
    int opt_nodes;     /* nodes it keeps busy */
} ce_out;

static inline double ce_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void ce_name(const ce_row *r, char *buf, size_t len)
{
    snprintf(buf, len, "%dx%dx%d/%d-%dn%s-x%g", r->blocks[0], r->blocks[1], r->blocks[2], r->side, r->nodes, r->kind,
             r->factor);
}

/* The nodes a mapping keeps busy. */
static inline int ce_nodes_used(const sm_topo *t, const int *map, int n)
{
    int used[256] = {0}, k = 0;
    for (int u = 0; u < n; u++) {
        int nd = t->procs[map[u]].node;
        if (nd < 256 && !used[nd]) { used[nd] = 1; k++; }
    }
    return k;
}

/* tabu, the bound at tabu's own makespan and the exact optimum there
 * (searched for at most limit seconds); 0, or -1 with a message. */
static inline int ce_run(const char *types, const ce_row *r, double limit, ce_out *o)
{
    memset(o, 0, sizeof *o);
    sm_topo *t = ce_machine(types, r->nodes, r->kind, r->factor);
    if (!t) return -1;
    sm_grid_spec gs;
    sm_grid_spec_default(&gs);
    for (int a = 0; a < 3; a++) {
        gs.blocks[a] = r->blocks[a];
        gs.cells[a] = (int64_t)r->side * r->blocks[a];
    }
    sm_err e;
    sm_grid *g = sm_grid_build(&gs, &e);
    if (!g) {
        fprintf(stderr, "grid: %s\n", e.msg);
        sm_topo_free(t);
        return -1;
    }
    /* summit-like.json's model, no deadline: tabu picks its own. */
    sm_model m;
    sm_model_default(&m);
    m.rounds = SM_ROUNDS_MAXDEG;
    m.overlap = 1;
    m.round_time = 1e-7;
    m.has_deadline = 0;
    m.unused_idle = 1;
    int n = g->ntasks;
    o->n = n;
    o->P = t->nprocs;
    int *start = calloc((size_t)n, sizeof(int));
    double t0 = ce_now();
    sm_solver *s = sm_solver_new(sm_solver_find("tabu"), g, t, &m, start, 0, NULL, &e);
    free(start);
    if (!s) {
        fprintf(stderr, "tabu: %s\n", e.msg);
        sm_grid_free(g);
        sm_topo_free(t);
        return -1;
    }
    while (!s->done) sm_solver_step(s, 4096);
    o->tabu_s = ce_now() - t0;
    o->tabu_map = malloc(sizeof(int) * (size_t)n);
    memcpy(o->tabu_map, s->best_map, sizeof(int) * (size_t)n);
    sm_solver_free(s);
    sm_eval_reference(g, t, &m, o->tabu_map, &o->tabu);
    o->tabu_nodes = ce_nodes_used(t, o->tabu_map, n);
    sm_model at = m;
    at.has_deadline = 1;
    at.deadline = o->tabu.time;
    t0 = ce_now();
    sm_bound_compute(g, t, &at, &o->bound);
    o->bound_s = ce_now() - t0;
    int *iso = sm_bound_profile(g);
    sm_bound_compute_with(g, t, &at, iso, SM_BOUND_NO_SURFACE | SM_BOUND_NO_GROUP_SPLIT, &o->bound_s7);
    free(iso);
    /* Below tabu's energy (a hair above, so that its mapping counts):
     * the search always ends with a mapping, checked by the model. */
    xo_solve(g, t, &at, o->tabu.energy * (1 + 1e-6), limit, &o->exact);
    if (o->exact.found) {
        sm_eval_reference(g, t, &at, o->exact.map, &o->opt);
        o->opt_nodes = ce_nodes_used(t, o->exact.map, n);
    }
    sm_grid_free(g);
    sm_topo_free(t);
    return 0;
}

static inline void ce_free(ce_out *o)
{
    free(o->tabu_map);
    free(o->exact.map);
    sm_bound_free(&o->bound);
    sm_bound_free(&o->bound_s7);
}

#endif
