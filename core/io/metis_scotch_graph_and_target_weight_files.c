/* metis_scotch_graph_and_target_weight_files.c - what METIS and Scotch are given: the task
 * graph (vertex weight = cells, edge weight = halo cells; METIS and
 * Scotch want undirected graphs, so both directions are merged), also as
 * GraphML, and beside it the target parts, gpmetis -tpwgts and a Scotch
 * cmpltw target, each processor weighted by its speed (second half). */
#include "metis_scotch_graph_and_target_weight_files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/strbuf.h"
#include "core/lib/util.h"

int sm_graph_format_parse(const char *s, sm_graph_format *out)
{
    if (strcmp(s, "metis") == 0) *out = SM_GFMT_METIS;
    else if (strcmp(s, "scotch") == 0) *out = SM_GFMT_SCOTCH;
    else if (strcmp(s, "graphml") == 0) *out = SM_GFMT_GRAPHML;
    else return -1;
    return 0;
}

/* METIS (idx_t) and most Scotch builds hold weights and their sums in 32
 * bits: 8192 blocks of 64^3 cells already sum to 2^31 and gpmetis then
 * silently returns one part. Sums are kept below this. */
#define WEIGHT_SUM_LIMIT ((int64_t)1 << 28)

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Divisor that brings the weights' sum under the limit: their common
 * divisor when that is enough (ratios stay exact), else a rounded
 * proportional scale; {1, 1} when no scaling is needed. */
typedef struct {
    int64_t div;  /* exact divisor */
    double scale; /* applied after div when the sum is still too large */
} weight_scale;

static weight_scale scale_for(int64_t sum, int64_t gcd)
{
    weight_scale w = {1, 1.0};
    if (sum <= WEIGHT_SUM_LIMIT) return w;
    if (gcd > 1) {
        w.div = gcd;
        sum /= gcd;
    }
    if (sum > WEIGHT_SUM_LIMIT) w.scale = (double)WEIGHT_SUM_LIMIT / (double)sum;
    return w;
}

static long long scaled(const weight_scale *w, int64_t v)
{
    if (w->div == 1 && w->scale == 1.0) return (long long)v;
    double x = (double)(v / w->div) * w->scale;
    long long r = (long long)(x + 0.5);
    return r < 1 ? 1 : r;
}

/* Weight of the undirected edge u-v: cells both ways. */
static int64_t merged(const sm_grid *g, int u, int v)
{
    int64_t w = 0;
    for (int k = g->inc_off[u]; k < g->inc_off[u + 1]; k++) {
        const sm_edge *e = &g->edges[g->inc[k]];
        if ((e->src == u && e->dst == v) || (e->src == v && e->dst == u)) w += e->cells;
    }
    return w;
}

static void xml_escape(sm_strbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': sm_strbuf_put(b, "&lt;"); break;
        case '>': sm_strbuf_put(b, "&gt;"); break;
        case '&': sm_strbuf_put(b, "&amp;"); break;
        case '"': sm_strbuf_put(b, "&quot;"); break;
        default: sm_strbuf_put(b, "%c", *s);
        }
    }
}

char *sm_graph_export(const sm_grid *g, sm_graph_format f, const int *map,
                      const sm_topo *t, size_t *len)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    int n = g->ntasks, m = g->nbr_off[n] / 2;
    weight_scale vs = {1, 1.0}, es = {1, 1.0};
    if (f != SM_GFMT_GRAPHML) {
        int64_t vsum = 0, vg = 0, esum = 0, eg = 0;
        for (int u = 0; u < n; u++) {
            vsum += g->task_cells[u];
            vg = gcd64(vg, g->task_cells[u]);
        }
        /* Each undirected edge appears twice in the adjacency lists. */
        for (int e = 0; e < g->nedges; e++) {
            esum += 2 * (int64_t)g->edges[e].cells;
            eg = gcd64(eg, g->edges[e].cells);
        }
        vs = scale_for(vsum, vg);
        es = scale_for(esum, eg);
    }
    if (f == SM_GFMT_METIS) {
        sm_strbuf_put(&b, "%% stencilmap task graph: vertex weight = cells, edge weight = halo cells\n");
        if (vs.div != 1 || vs.scale != 1.0 || es.div != 1 || es.scale != 1.0)
            sm_strbuf_put(&b, "%% weights scaled to fit 32 bits: vertex = cells / %lld * %.9g, "
                               "edge = halo cells / %lld * %.9g (rounded, at least 1)\n",
                          (long long)vs.div, vs.scale, (long long)es.div, es.scale);
        sm_strbuf_put(&b, "%d %d 011\n", n, m);
        for (int u = 0; u < n; u++) {
            sm_strbuf_put(&b, "%lld", scaled(&vs, g->task_cells[u]));
            for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++)
                sm_strbuf_put(&b, " %d %lld", g->nbr[k] + 1, scaled(&es, merged(g, u, g->nbr[k])));
            sm_strbuf_put(&b, "\n");
        }
    } else if (f == SM_GFMT_SCOTCH) {
        sm_strbuf_put(&b, "0\n%d %d\n0 011\n", n, 2 * m);
        for (int u = 0; u < n; u++) {
            sm_strbuf_put(&b, "%lld %d", scaled(&vs, g->task_cells[u]), g->nbr_off[u + 1] - g->nbr_off[u]);
            for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++)
                sm_strbuf_put(&b, " %lld %d", scaled(&es, merged(g, u, g->nbr[k])), g->nbr[k]);
            sm_strbuf_put(&b, "\n");
        }
    } else {
        sm_strbuf_put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                "  <key id=\"cells\" for=\"node\" attr.name=\"cells\" attr.type=\"long\"/>\n"
                "  <key id=\"ijk\" for=\"node\" attr.name=\"ijk\" attr.type=\"string\"/>\n");
        if (map)
            sm_strbuf_put(&b, "  <key id=\"proc\" for=\"node\" attr.name=\"proc\" attr.type=\"string\"/>\n"
                    "  <key id=\"node\" for=\"node\" attr.name=\"node\" attr.type=\"int\"/>\n");
        sm_strbuf_put(&b, "  <key id=\"halo\" for=\"edge\" attr.name=\"cells\" attr.type=\"long\"/>\n"
                "  <graph id=\"tasks\" edgedefault=\"directed\">\n");
        for (int u = 0; u < n; u++) {
            int c[3];
            sm_grid_coords(g, u, c);
            sm_strbuf_put(&b, "    <node id=\"b%d\"><data key=\"cells\">%lld</data>"
                    "<data key=\"ijk\">%d %d %d</data>",
                u, (long long)g->task_cells[u], c[0], c[1], c[2]);
            if (map) {
                sm_strbuf_put(&b, "<data key=\"proc\">");
                xml_escape(&b, t->procs[map[u]].name);
                sm_strbuf_put(&b, "</data><data key=\"node\">%d</data>", t->procs[map[u]].node);
            }
            sm_strbuf_put(&b, "</node>\n");
        }
        for (int e = 0; e < g->nedges; e++)
            sm_strbuf_put(&b, "    <edge source=\"b%d\" target=\"b%d\"><data key=\"halo\">%lld</data></edge>\n",
                g->edges[e].src, g->edges[e].dst, (long long)g->edges[e].cells);
        sm_strbuf_put(&b, "  </graph>\n</graphml>\n");
    }
    *len = b.n;
    return b.s;
}

/* ---- Target parts: gpmetis -tpwgts, Scotch cmpltw ---- */


static double speed(const sm_topo *t, int p)
{
    double tpc = sm_topo_proc_params(t, p)->time_per_cell;
    return tpc > 0 && isfinite(tpc) ? 1.0 / tpc : 0.0;
}

/* Weights in units of 1e-9, shared out by largest remainder (Hamilton):
 * every processor gets the floor of its quota and the units left over (fewer
 * than the processors) go one each to the largest remainders. Each weight is
 * then within one unit of its exact share and the printed weights sum to
 * exactly 1, with no processor absorbing the others' rounding (summit-full's
 * 36,864 processors lost 4.7e-3 to 6-digit rounding, all of it on the last
 * V100). A processor with any speed keeps at least one unit: gpmetis refuses
 * a zero target weight. */
#define SM_TPW_UNITS 1000000000LL

typedef struct { double rem; int p; } tpw_rem;

static int rem_desc(const void *a, const void *b)
{
    const tpw_rem *x = a, *y = b;
    if (x->rem != y->rem) return x->rem > y->rem ? -1 : 1;
    return x->p - y->p;
}

long long *sm_tpwgts_units(const sm_topo *t)
{
    int P = t->nprocs;
    long long *u = sm_xcalloc((size_t)(P ? P : 1), sizeof *u);
    if (P == 0) return u;
    double total = 0;
    for (int p = 0; p < P; p++) total += speed(t, p);
    tpw_rem *r = sm_xmalloc(sizeof *r * (size_t)P);
    long long given = 0;
    for (int p = 0; p < P; p++) {
        double q = total > 0 ? (double)SM_TPW_UNITS * (speed(t, p) / total) : (double)SM_TPW_UNITS / P;
        double f = floor(q);
        u[p] = (long long)f;
        if (u[p] == 0 && q > 0) { u[p] = 1; f = 1; }
        r[p].rem = q - f;
        r[p].p = p;
        given += u[p];
    }
    long long left = SM_TPW_UNITS - given;
    qsort(r, (size_t)P, sizeof *r, rem_desc);
    /* left < P; it is negative only when the one-unit floors overshot, then
     * the smallest remainders give a unit back (never below one). */
    for (int k = 0; left > 0 && k < P; k++, left--) u[r[k].p]++;
    for (int k = P - 1; left < 0 && k >= 0; k--)
        if (u[r[k].p] > 1) { u[r[k].p]--; left++; }
    free(r);
    return u;
}

char *sm_tpwgts_text(const sm_topo *t, size_t *len)
{
    long long *u = sm_tpwgts_units(t);
    sm_strbuf b;
    sm_strbuf_init(&b);
    for (int p = 0; p < t->nprocs; p++)
        sm_strbuf_put(&b, "%d = %lld.%09lld\n", p, u[p] / SM_TPW_UNITS, u[p] % SM_TPW_UNITS);
    if (!b.s) sm_strbuf_put(&b, "%s", "");
    free(u);
    *len = b.n;
    return b.s;
}

char *sm_scotch_target_text(const sm_topo *t, size_t *len)
{
    double lo = 0;
    for (int p = 0; p < t->nprocs; p++) {
        double s = speed(t, p);
        if (s > 0 && (lo == 0 || s < lo)) lo = s;
    }
    sm_strbuf b;
    sm_strbuf_init(&b);
    sm_strbuf_put(&b, "cmpltw %d", t->nprocs);
    /* The slowest processor weighs 100: ratios to within 1%. */
    for (int p = 0; p < t->nprocs; p++) {
        double s = speed(t, p);
        long w = lo > 0 ? lround(100.0 * s / lo) : 100;
        if (w < 1) w = 1;
        if (w > 1000000000L) w = 1000000000L;
        sm_strbuf_put(&b, "%s%ld", p % 16 == 0 ? "\n" : " ", w);
    }
    sm_strbuf_put(&b, "\n");
    *len = b.n;
    return b.s;
}
