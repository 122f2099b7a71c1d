/* testutil.h - shared helpers for the cmocka unit tests. */
#ifndef SM_TESTUTIL_H
#define SM_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/model/cost_incremental.h"
#include "core/model/speed_proportional_quota.h"
#include "core/model/grid.h"
#include "core/io/grid_file.h"
#include "core/model/topology.h"
#include "core/io/topology_file.h"

#define BLOCK_CELLS 262144.0
#define MSG_CELLS 4096.0

/* The spec of a grid of bx x by x bz blocks of 64^3 cells (one cell deep
 * in z for the 2-D stencils), periodic where px/py/pz say. */
static inline sm_grid_spec tu_grid_spec(int bx, int by, int bz, int px, int py, int pz,
                                        sm_stencil st)
{
    sm_grid_spec s;
    sm_grid_spec_default(&s);
    int b[3] = {bx, by, bz}, p[3] = {px, py, pz};
    for (int a = 0; a < 3; a++) {
        s.blocks[a] = b[a];
        s.periodic[a] = p[a];
        s.cells[a] = (a == 2 && (st == SM_ST_5PT || st == SM_ST_9PT)) ? 1 : 64LL * b[a];
    }
    s.stencil = st;
    return s;
}

static inline sm_grid *tu_grid(int bx, int by, int bz, int px, int py, int pz,
                               sm_stencil st)
{
    sm_grid_spec s = tu_grid_spec(bx, by, bz, px, py, pz, st);
    sm_err e;
    sm_grid *g = sm_grid_build(&s, &e);
    if (!g) fail_msg("grid: %s", e.msg);
    return g;
}

static inline sm_topo *tu_topo_text(const char *text)
{
    sm_err e;
    sm_topo *t = sm_topo_parse_text(text, strlen(text), "test.json", &e);
    if (!t) fail_msg("topology: %s", e.msg);
    return t;
}

/* The thesis's single-node machine with the given processor kinds, e.g.
 * "cpu gpu gpu". */
static inline sm_topo *tu_thesis(const char *kinds)
{
    char procs[2048] = "", buf[128];
    int n = 0, nc = 0, ng = 0;
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", kinds);
    for (char *k = strtok(tmp, " "); k; k = strtok(NULL, " ")) {
        int gpu = strcmp(k, "gpu") == 0;
        snprintf(buf, sizeof buf, "%s{\"name\":\"%s%d\",\"type\":\"%s\",\"node\":0}",
                 n ? "," : "", k, gpu ? ng++ : nc++, k);
        strcat(procs, buf);
        n++;
    }
    char *text = malloc(8192);
    snprintf(text, 8192,
             "{\"format\":\"stencilmap/topology\",\"version\":1,"
             "\"types\":{\"cpu\":{\"time_per_cell\":%.17g,\"energy_per_cell\":%.17g,\"p0\":90,\"p_idle\":10},"
             "\"gpu\":{\"time_per_cell\":%.17g,\"energy_per_cell\":%.17g,\"p0\":74,\"p_idle\":30}},"
             "\"processors\":[%s],\"network\":{\"kind\":\"single\"},"
             "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":%.17g,\"energy_per_cell\":%.17g}}}}",
             218e-6 / BLOCK_CELLS, 7645e-6 / BLOCK_CELLS, 28e-6 / BLOCK_CELLS,
             1443e-6 / BLOCK_CELLS, procs, 4e-6 / MSG_CELLS, 55768e-6 / MSG_CELLS);
    sm_topo *t = tu_topo_text(text);
    free(text);
    return t;
}

static inline void tu_assert_close(double a, double b, double rel, const char *what)
{
    double m = fmax(fabs(a), fabs(b));
    if (fabs(a - b) > rel * m + 1e-300)
        fail_msg("%s: %.17g vs %.17g (rel %.3g)", what, a, b, m ? fabs(a - b) / m : 0);
}

/* One processor per node ("p0", "p1"...) on the given "network" object,
 * with per-hop inter links. */
static inline sm_topo *tu_one_per_node(const char *network, int nodes)
{
    char *buf = malloc(65536);
    int len = snprintf(buf, 65536,
                       "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{\"n\":{\"time_per_cell\":1e-9,"
                       "\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},\"processors\":[");
    for (int i = 0; i < nodes; i++)
        len += snprintf(buf + len, 65536 - (size_t)len, "%s{\"name\":\"p%d\",\"type\":\"n\",\"node\":%d}",
                        i ? "," : "", i, i);
    snprintf(buf + len, 65536 - (size_t)len,
             "],\"network\":%s,\"links\":{\"inter\":[{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9},"
             "{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}]}}",
             network);
    sm_topo *t = tu_topo_text(buf);
    free(buf);
    return t;
}

/* Every mapping of a tiny instance (at most 16 blocks), best by the
 * objective order: the exact answer solvers are checked against. */
static inline void tu_enumerate(const sm_grid *g, const sm_topo *t, const sm_model *m, sm_eval *best)
{
    int n = g->ntasks, P = t->nprocs;
    int map[16] = {0};
    int have = 0;
    assert_true(n <= 16);
    for (;;) {
        sm_eval ev;
        sm_eval_reference(g, t, m, map, &ev);
        if (!have || sm_eval_compare(&ev, best) < 0) { *best = ev; have = 1; }
        int k = 0;
        while (k < n && ++map[k] == P) map[k++] = 0;
        if (k == n) break;
    }
}

#endif
