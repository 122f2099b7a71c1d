/* graph_export.c - vertex weight = cells, edge weight = halo cells; METIS
 * and Scotch want undirected graphs, so both directions are merged. */
#include "graph_export.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

int sm_graph_format_parse(const char *s, sm_graph_format *out)
{
    if (strcmp(s, "metis") == 0) *out = SM_GFMT_METIS;
    else if (strcmp(s, "scotch") == 0) *out = SM_GFMT_SCOTCH;
    else if (strcmp(s, "graphml") == 0) *out = SM_GFMT_GRAPHML;
    else return -1;
    return 0;
}

typedef struct { char *s; size_t n, cap; } sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + (size_t)(k > 0 ? k : 64) + 64;
        b->s = sm_xrealloc(b->s, b->cap);
    }
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

static void xml_escape(sbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': put(b, "&lt;"); break;
        case '>': put(b, "&gt;"); break;
        case '&': put(b, "&amp;"); break;
        case '"': put(b, "&quot;"); break;
        default: put(b, "%c", *s);
        }
    }
}

char *sm_graph_export(const sm_grid *g, sm_graph_format f, const int *map,
                      const sm_topo *t, size_t *len)
{
    sbuf b = {sm_xmalloc(4096), 0, 4096};
    int n = g->ntasks, m = g->nbr_off[n] / 2;
    if (f == SM_GFMT_METIS) {
        put(&b, "%% stencilmap task graph: vertex weight = cells, edge weight = halo cells\n");
        put(&b, "%d %d 011\n", n, m);
        for (int u = 0; u < n; u++) {
            put(&b, "%lld", (long long)g->task_cells[u]);
            for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++)
                put(&b, " %d %lld", g->nbr[k] + 1, (long long)merged(g, u, g->nbr[k]));
            put(&b, "\n");
        }
    } else if (f == SM_GFMT_SCOTCH) {
        put(&b, "0\n%d %d\n0 011\n", n, 2 * m);
        for (int u = 0; u < n; u++) {
            put(&b, "%lld %d", (long long)g->task_cells[u], g->nbr_off[u + 1] - g->nbr_off[u]);
            for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++)
                put(&b, " %lld %d", (long long)merged(g, u, g->nbr[k]), g->nbr[k]);
            put(&b, "\n");
        }
    } else {
        put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                "  <key id=\"cells\" for=\"node\" attr.name=\"cells\" attr.type=\"long\"/>\n"
                "  <key id=\"ijk\" for=\"node\" attr.name=\"ijk\" attr.type=\"string\"/>\n");
        if (map)
            put(&b, "  <key id=\"proc\" for=\"node\" attr.name=\"proc\" attr.type=\"string\"/>\n"
                    "  <key id=\"node\" for=\"node\" attr.name=\"node\" attr.type=\"int\"/>\n");
        put(&b, "  <key id=\"halo\" for=\"edge\" attr.name=\"cells\" attr.type=\"long\"/>\n"
                "  <graph id=\"tasks\" edgedefault=\"directed\">\n");
        for (int u = 0; u < n; u++) {
            int c[3];
            sm_grid_coords(g, u, c);
            put(&b, "    <node id=\"b%d\"><data key=\"cells\">%lld</data>"
                    "<data key=\"ijk\">%d %d %d</data>",
                u, (long long)g->task_cells[u], c[0], c[1], c[2]);
            if (map) {
                put(&b, "<data key=\"proc\">");
                xml_escape(&b, t->procs[map[u]].name);
                put(&b, "</data><data key=\"node\">%d</data>", t->procs[map[u]].node);
            }
            put(&b, "</node>\n");
        }
        for (int e = 0; e < g->nedges; e++)
            put(&b, "    <edge source=\"b%d\" target=\"b%d\"><data key=\"halo\">%lld</data></edge>\n",
                g->edges[e].src, g->edges[e].dst, (long long)g->edges[e].cells);
        put(&b, "  </graph>\n</graphml>\n");
    }
    *len = b.n;
    return b.s;
}
